/**
 * The error every failed delegate call rejects with: an `FwError` of `@fw/core`. For answers in
 * the framework envelope it carries the envelope's `code`, `subErrorCode`, `description` and
 * `errors`; transport failures and answers that are not an envelope get the delegate's own
 * sub-error codes. A code a server of the previous release sends in its former spelling (`P422`)
 * is read as its current one (`P010`, the former kept in `legacyCode`), so callers compare with
 * `ProcessErrorCodes` whatever the server's release. Not exposed: a handler that lets it escape
 * answers the generic 500, not the other server's words.
 *
 * @example
 * try { await delegate.sendEvent(id, 'doneSuccessfully', { output }); }
 * catch (e) { if (isProcessDelegateError(e) && e.subErrorCode === ProcessErrorCodes.eventNotAllowed) { ... already done ... } }
 */
import { canonicalErrorCode, FwError, type Severity } from '@fw/core';

/** Sub-error codes of the delegate itself. */
export const DelegateErrorCodes = {
  /** [503] The server could not be reached (connection refused, DNS, reset). */
  unreachable: 'PD001',
  /** [504] No answer within `timeoutMs`. */
  timeout: 'PD002',
  /** [502, or the HTTP status] The answer is not a framework envelope (not JSON, wrong shape). */
  invalidResponse: 'PD003',
} as const;

/** One entry of the envelope's `errors`. */
export interface DelegateErrorDetail {
  code: string;
  subErrorCode: string;
  description: string;
  params?: unknown[];
  field?: string;
  severity?: string;
}

export interface ProcessDelegateErrorInit {
  code: number;
  subErrorCode: string;
  description: string;
  severity?: string;
  errors?: DelegateErrorDetail[];
  /** HTTP status of the answer; 0 when there was none. */
  status: number;
  method: string;
  url: string;
  cause?: unknown;
}

const SEVERITIES: readonly string[] = ['ERROR', 'WARN', 'INFO'];

export class ProcessDelegateError extends FwError {
  /** The envelope's details as received (the envelope's `errors`). */
  readonly errors: DelegateErrorDetail[];
  readonly status: number;
  readonly method: string;
  readonly url: string;

  constructor(init: ProcessDelegateErrorInit) {
    const subErrorCode = canonicalErrorCode(init.subErrorCode);
    const severity = SEVERITIES.includes(init.severity ?? '') ? (init.severity as Severity) : 'ERROR';
    super({ code: init.code, subErrorCode, description: init.description, severity, expose: false, cause: init.cause });
    this.message = `${init.method} ${init.url}: ${init.code} ${subErrorCode} ${init.description}`;
    this.name = 'ProcessDelegateError';
    this.errors = (init.errors ?? []).map((e) => ({ ...e, subErrorCode: canonicalErrorCode(e.subErrorCode) }));
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
  }
}

/** True for a {@link ProcessDelegateError}, also across package copies. */
export function isProcessDelegateError(value: unknown): value is ProcessDelegateError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'FwError' &&
    (value as { name?: unknown }).name === 'ProcessDelegateError'
  );
}
