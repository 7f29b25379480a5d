/**
 * Errors of the administration API. The API answers plain `{ "message": "..." }` bodies (never the
 * framework envelope, never a stack trace). Handlers throw {@link managementError}s (or any
 * `FwError`, whose status and description are kept); anything else becomes a 500 with a generic
 * message, the details going to the log only.
 *
 * @example
 * throw managementError(409, 'PM409', `Definition 'import' already exists`);
 */
import { FwError, isConfigError, isFwError, type Logger } from '@fw/core';
import type { ErrorRequestHandler, RequestHandler } from 'express';

/** Sub-error codes of the administration API (kept on the thrown FwError, for logs and tests). */
export const ManagementErrorCodes = {
  badRequest: 'PM400',
  unauthorized: 'PM401',
  notFound: 'PM404',
  conflict: 'PM409',
  tooLarge: 'PM413',
  unsupportedMediaType: 'PM415',
  internal: 'PM500',
  unavailable: 'PM503',
} as const;

/** The body of every error answer. */
export interface ManagementErrorBody {
  message: string;
}

/** An FwError with the given status; `message` is what the client reads. */
export function managementError(status: number, subErrorCode: string, message: string, cause?: unknown): FwError {
  return new FwError({ code: status, subErrorCode, description: message, cause });
}

export const badRequest = (message: string): FwError => managementError(400, ManagementErrorCodes.badRequest, message);
export const notFound = (message: string): FwError => managementError(404, ManagementErrorCodes.notFound, message);
export const conflict = (message: string): FwError => managementError(409, ManagementErrorCodes.conflict, message);
export const unavailable = (message: string): FwError => managementError(503, ManagementErrorCodes.unavailable, message);

interface HttpParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

function fromParserError(err: HttpParserError): FwError | undefined {
  if (typeof err.status !== 'number' || err.status >= 500 || err.expose !== true) return undefined;
  if (err.type === 'entity.too.large') return managementError(413, ManagementErrorCodes.tooLarge, 'The request body is too large');
  if (err.type === 'entity.parse.failed') return badRequest('The request body is not valid JSON');
  return managementError(err.status, ManagementErrorCodes.badRequest, 'The request body could not be read');
}

/** Converts any error into `{ message }` with the right status. */
export function makeManagementErrorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    let status: number;
    let message: string;
    if (isFwError(err)) {
      status = err.code;
      message = err.description;
      if (status >= 500) logger.error({ err, cause: err.cause, path: req.path }, err.description);
    } else if (isConfigError(err)) {
      // Validation of definitions reuses the process service's ConfigError: a client mistake.
      status = 400;
      message = err.message;
    } else {
      const parsed = typeof err === 'object' && err !== null ? fromParserError(err as HttpParserError) : undefined;
      if (parsed) {
        status = parsed.code;
        message = parsed.description;
      } else {
        logger.error({ err, path: req.path, method: req.method }, 'unexpected error in the administration API');
        status = 500;
        message = 'Internal server error';
      }
    }
    const body: ManagementErrorBody = { message };
    res.status(status).json(body);
  };
}

/** 404 `{ message }` for unknown paths under the API. */
export function makeManagementNotFound(): RequestHandler {
  return (req, res) => {
    const body: ManagementErrorBody = { message: `No route for ${req.method} ${req.originalUrl.split('?')[0]}` };
    res.status(404).json(body);
  };
}

/** 415 for write requests whose body is not JSON (a form post never reaches a handler as `{}`). */
export function requireJsonContent(): RequestHandler {
  return (req, _res, next) => {
    const hasBody = (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.is('application/json')) {
      next(managementError(415, ManagementErrorCodes.unsupportedMediaType, 'Content-Type must be application/json'));
      return;
    }
    next();
  };
}
