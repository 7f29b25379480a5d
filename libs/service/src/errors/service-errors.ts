/**
 * Stable sub-error codes of `@fw/service` (in the envelope's `subErrorCode`).
 *
 * | code | status | when |
 * |---|---|---|
 * | SVC400 | 400 | the input breaks the operation's schema (the field is named) |
 * | SVC401 | 401 | an interceptor refused the caller (shipped: `makeApiKeyInterceptor`) |
 * | SVC404 | 404 | no such service or operation |
 * | SVC500 | 500 | the output breaks the operation's schema (`outputValidation: 'error'`) |
 * | SVC501 | 501 | `invoke` of an operation the host serves over HTTP only (`httpBinding: 'host'`, no handler) |
 * | FW503 | 503 | a health check failed (the core's code, as every fw host answers it) |
 */
import { CoreErrorCodes, FwError } from '@fw/core';

export const ServiceErrorCodes = {
  invalidInput: 'SVC400',
  unauthorized: 'SVC401',
  notFound: 'SVC404',
  invalidOutput: 'SVC500',
  notInvocable: 'SVC501',
  unhealthy: CoreErrorCodes.unavailable,
} as const;

export function serviceNotFound(name: string): FwError {
  return new FwError({
    code: 404,
    subErrorCode: ServiceErrorCodes.notFound,
    description: `No service named '${name}'`,
    params: [name],
  });
}

export function operationNotFound(service: string, operation: string): FwError {
  return new FwError({
    code: 404,
    subErrorCode: ServiceErrorCodes.notFound,
    description: `Service '${service}' has no operation '${operation}'`,
    params: [service, operation],
  });
}
