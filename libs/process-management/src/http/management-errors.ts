/**
 * Errors of the administration API. The API answers plain `{ "message": "..." }` bodies (never the
 * framework envelope, never a stack trace). Handlers throw {@link managementError}s (or any
 * `FwError`, whose status and description are kept); anything else becomes a 500 with a generic
 * message, the details going to the log only.
 *
 * @example
 * throw managementError(409, 'PM409', `Definition 'import' already exists`);
 */
import { FwError, isConfigError, isFwError, toFwError, type Logger } from '@fw/core';
import type { ErrorRequestHandler, RequestHandler } from 'express';

/** Sub-error codes of the administration API (kept on the thrown FwError, for logs and tests). */
export const ManagementErrorCodes = {
  badRequest: 'PM400',
  unauthorized: 'PM401',
  forbidden: 'PM403',
  notFound: 'PM404',
  conflict: 'PM409',
  tooLarge: 'PM413',
  unsupportedMediaType: 'PM415',
  tooManyRequests: 'PM429',
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
export const forbidden = (message: string): FwError => managementError(403, ManagementErrorCodes.forbidden, message);
export const notFound = (message: string): FwError => managementError(404, ManagementErrorCodes.notFound, message);
export const conflict = (message: string): FwError => managementError(409, ManagementErrorCodes.conflict, message);
export const unavailable = (message: string): FwError =>
  managementError(503, ManagementErrorCodes.unavailable, message);

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
      // Body-parser failures, values the database refused (400) and anything unexpected (500,
      // logged), mapped as every fw host maps them.
      const mapped = toFwError(err, logger, { path: req.path, method: req.method });
      status = mapped.code;
      message = mapped.description;
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
    const hasBody =
      (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') ||
      req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.is('application/json')) {
      next(managementError(415, ManagementErrorCodes.unsupportedMediaType, 'Content-Type must be application/json'));
      return;
    }
    next();
  };
}
