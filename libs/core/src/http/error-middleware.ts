import type { ErrorRequestHandler, RequestHandler } from 'express';
import { CoreErrorCodes, FwError, isFwError } from '../errors/fw-error';
import type { Logger } from '../logging/logger';
import { errorEnvelope } from './response-envelope';

interface HttpParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** 400 FW400: the request body is not valid JSON (what a failed `express.json()` parse becomes). */
export function malformedJsonError(): FwError {
  return new FwError({ code: 400, subErrorCode: CoreErrorCodes.malformedJson, description: 'The request body is not valid JSON' });
}

/** 413 FW413: the request body is over the size limit. */
export function payloadTooLargeError(): FwError {
  return new FwError({ code: 413, subErrorCode: CoreErrorCodes.payloadTooLarge, description: 'The request body is too large' });
}

/** Maps body-parser failures (bad JSON, too large, bad charset) to framework errors. */
function fromParserError(err: HttpParserError): FwError | undefined {
  if (typeof err.status !== 'number' || err.status >= 500 || err.expose !== true) return undefined;
  if (err.type === 'entity.parse.failed') return malformedJsonError();
  if (err.type === 'entity.too.large') return payloadTooLargeError();
  return new FwError({ code: err.status, subErrorCode: CoreErrorCodes.malformedJson, description: 'The request body could not be read' });
}

/**
 * The FwError a failed request answers with, logged like {@link makeErrorMiddleware} logs it:
 * `FwError`s keep their status and code (5xx ones are logged); body-parser failures map to
 * FW400/FW413; anything else is logged and becomes a generic 500. Handlers that answer without
 * express use it so their error bodies and log lines stay the same as the middleware's.
 *
 * @example
 * const error = toFwError(err, logger, { path: '/q/books', method: 'POST' });
 * res.writeHead(error.code, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(errorEnvelope(error)));
 */
export function toFwError(err: unknown, logger: Logger, request: { path: string; method: string }): FwError {
  if (isFwError(err)) {
    if (err.code >= 500) logger.error({ err, path: request.path, cause: err.cause }, err.description);
    return err;
  }
  const parsed = typeof err === 'object' && err !== null ? fromParserError(err as HttpParserError) : undefined;
  if (parsed) return parsed;
  logger.error({ err, path: request.path, method: request.method }, 'unexpected error while handling request');
  return new FwError({ code: 500, subErrorCode: CoreErrorCodes.internal, description: 'Internal server error' });
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
    const fwError = toFwError(err, logger, req);
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
