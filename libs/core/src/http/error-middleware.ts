import type { ErrorRequestHandler, RequestHandler } from 'express';
import { CoreErrorCodes, FwError, isFwError } from '../errors/fw-error';
import type { Logger } from '../logging/logger';
import { errorEnvelope } from './response-envelope';

interface HttpParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** Maps body-parser failures (bad JSON, too large, bad charset) to framework errors. */
function fromParserError(err: HttpParserError): FwError | undefined {
  if (typeof err.status !== 'number' || err.status >= 500 || err.expose !== true) return undefined;
  if (err.type === 'entity.parse.failed') {
    return new FwError({ code: 400, subErrorCode: CoreErrorCodes.malformedJson, description: 'The request body is not valid JSON' });
  }
  if (err.type === 'entity.too.large') {
    return new FwError({ code: 413, subErrorCode: CoreErrorCodes.payloadTooLarge, description: 'The request body is too large' });
  }
  return new FwError({ code: err.status, subErrorCode: CoreErrorCodes.malformedJson, description: 'The request body could not be read' });
}

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
    let fwError: FwError;
    if (isFwError(err)) {
      fwError = err;
      if (fwError.code >= 500) logger.error({ err, path: req.path, cause: fwError.cause }, fwError.description);
    } else {
      const parsed = typeof err === 'object' && err !== null ? fromParserError(err as HttpParserError) : undefined;
      if (parsed) {
        fwError = parsed;
      } else {
        logger.error({ err, path: req.path, method: req.method }, 'unexpected error while handling request');
        fwError = new FwError({ code: 500, subErrorCode: CoreErrorCodes.internal, description: 'Internal server error' });
      }
    }
    res.status(fwError.code).json(errorEnvelope(fwError));
  };
}

/** Answers unknown routes with a 404 envelope instead of express's HTML page. */
export function makeNotFoundHandler(): RequestHandler {
  return (req, res) => {
    const error = new FwError({ code: 404, subErrorCode: CoreErrorCodes.notFound, description: `No route for ${req.method} ${req.path}`, params: [req.method, req.path] });
    res.status(404).json(errorEnvelope(error));
  };
}

/** Rejects non-JSON bodies on write methods with 415, so a form post never reaches a handler as `{}`. */
export function requireJsonBody(): RequestHandler {
  return (req, _res, next) => {
    const hasBody = req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0';
    if ((hasBody || req.headers['transfer-encoding'] !== undefined) && !req.is('application/json')) {
      next(new FwError({ code: 415, subErrorCode: CoreErrorCodes.unsupportedMediaType, description: 'Content-Type must be application/json' }));
      return;
    }
    next();
  };
}
