import type { Request, RequestHandler } from 'express';
import { CoreErrorCodes, FwError } from '../errors/fw-error';
import { allowedMethods, pathTemplates } from './path-templates';
import { errorEnvelope } from './response-envelope';

export interface MethodNotAllowedOptions {
  /** The body of the 405 (default: the framework envelope, `FW405`). */
  body?: (message: string, allowed: readonly string[]) => unknown;
}

/**
 * 405 with `Allow` for a method a known path does not take (other methods on a known path answer 405), decided from the request
 * line alone; requests for other paths, or with a method the path takes, go on.
 *
 * @example
 * router.use(makeMethodNotAllowed([{ method: 'GET', path: '/process/{id}' }]));   // DELETE /process/x → 405, Allow: GET, HEAD
 */
export function makeMethodNotAllowed(
  operations: ReadonlyArray<{ method: string; path: string }>,
  options: MethodNotAllowedOptions = {},
): RequestHandler {
  const templates = pathTemplates(operations);
  const body =
    options.body ??
    ((message: string, allowed: readonly string[]) =>
      errorEnvelope(
        new FwError({
          code: 405,
          subErrorCode: CoreErrorCodes.methodNotAllowed,
          description: message,
          params: [...allowed],
        }),
      ));
  return (req: Request, res, next) => {
    const allowed = allowedMethods(templates, req.path);
    if (allowed.length === 0 || allowed.includes(req.method)) {
      next();
      return;
    }
    const message = `Method ${req.method} is not allowed on ${req.originalUrl.split('?')[0]}: use ${allowed.join(', ')}`;
    res.status(405).set('Allow', allowed.join(', ')).json(body(message, allowed));
  };
}
