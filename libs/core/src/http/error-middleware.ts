import type { ErrorRequestHandler, RequestHandler } from 'express';
import { CoreErrorCodes, FwError } from '../errors/fw-error';
import type { Logger } from '../logging/logger';
import { toFwError } from './error-mapping';
import { errorEnvelope } from './response-envelope';

/**
 * Converts any error into the framework envelope. `FwError`s keep their status and code;
 * everything else becomes a 500 with a generic message, the details going to the log only.
 */
export function makeErrorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const fwError = toFwError(err, logger, req);
    res.status(fwError.code).json(errorEnvelope(fwError));
  };
}

/** Answers unknown routes with a 404 envelope instead of express's HTML page. */
export function makeNotFoundHandler(): RequestHandler {
  return (req, res) => {
    const error = new FwError({
      code: 404,
      subErrorCode: CoreErrorCodes.notFound,
      description: `No route for ${req.method} ${req.path}`,
      params: [req.method, req.path],
    });
    res.status(404).json(errorEnvelope(error));
  };
}

/** Rejects non-JSON bodies on write methods with 415, so a form post never reaches a handler as `{}`. */
export function requireJsonBody(): RequestHandler {
  return (req, _res, next) => {
    const hasBody = req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0';
    const type = req.headers['content-type'];
    // The common exact header skips type-is's parse; anything else (+json suffixes, odd casing) is checked properly.
    const plainJson = type === 'application/json' || (type !== undefined && type.startsWith('application/json;'));
    if ((hasBody || req.headers['transfer-encoding'] !== undefined) && !plainJson && !req.is('application/json')) {
      next(
        new FwError({
          code: 415,
          subErrorCode: CoreErrorCodes.unsupportedMediaType,
          description: 'Content-Type must be application/json',
        }),
      );
      return;
    }
    next();
  };
}
