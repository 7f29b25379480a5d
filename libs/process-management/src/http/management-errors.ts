/**
 * Errors of the administration API. Every error answer is the framework error envelope written by
 * `errorEnvelope` of `@fw/core` (its `message` field carries the text `{ message }` clients read;
 * never a stack trace). Handlers throw {@link managementError}s (or any exposed `FwError`, whose
 * status and code are kept); anything else becomes a 500 with a generic message, the details
 * going to the log only.
 *
 * @example
 * throw managementError(409, ManagementErrorCodes.conflict, `Definition 'import' already exists`);
 */
import { errorEnvelope, FwError, isConfigError, toFwError, type ErrorEnvelope, type Logger } from '@fw/core';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';

/**
 * Sub-error codes of the administration API. Each equals `PM` and the HTTP status it is always
 * answered with (unlike the process and trigger codes, which are not statuses).
 */
export const ManagementErrorCodes = {
  badRequest: 'PM400',
  unauthorized: 'PM401',
  forbidden: 'PM403',
  notFound: 'PM404',
  methodNotAllowed: 'PM405',
  conflict: 'PM409',
  tooLarge: 'PM413',
  unsupportedMediaType: 'PM415',
  tooManyRequests: 'PM429',
  internal: 'PM500',
  unavailable: 'PM503',
} as const;

/** The body of every error answer: the framework error envelope (with its `message`). */
export type ManagementErrorBody = ErrorEnvelope;

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

const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: ManagementErrorCodes.badRequest,
  401: ManagementErrorCodes.unauthorized,
  403: ManagementErrorCodes.forbidden,
  404: ManagementErrorCodes.notFound,
  405: ManagementErrorCodes.methodNotAllowed,
  409: ManagementErrorCodes.conflict,
  413: ManagementErrorCodes.tooLarge,
  415: ManagementErrorCodes.unsupportedMediaType,
  429: ManagementErrorCodes.tooManyRequests,
  503: ManagementErrorCodes.unavailable,
};

/** The envelope of an answer the API writes itself (access refusals, 404, 405): `PM<status>`. */
export function managementErrorBody(status: number, message: string): ManagementErrorBody {
  return errorEnvelope(managementError(status, CODE_BY_STATUS[status] ?? ManagementErrorCodes.internal, message));
}

/** Writes `error` as the answer: its status and its envelope. */
export function sendError(res: Response, error: FwError): void {
  res.status(error.code).json(errorEnvelope(error));
}

/** Converts any error into the envelope with the right status. */
export function makeManagementErrorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    // Validation of definitions reuses the process service's ConfigError: a client mistake.
    if (isConfigError(err)) {
      sendError(res, badRequest(err.message));
      return;
    }
    // Exposed FwErrors keep status and code; body-parser failures, values the database refused
    // (400) and anything unexpected (500, logged) are mapped as every fw host maps them.
    sendError(res, toFwError(err, logger, { path: req.path, method: req.method }));
  };
}

/** 404 envelope for unknown paths under the API. */
export function makeManagementNotFound(): RequestHandler {
  return (req, res) => {
    sendError(res, notFound(`No route for ${req.method} ${req.originalUrl.split('?')[0]}`));
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
