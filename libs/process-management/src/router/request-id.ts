/**
 * The request id of the administration API: the client's `X-Request-Id` when it is a short plain
 * token, else a new UUID; answered in `X-Request-Id` and recorded with audited changes, so an
 * operator can match a client's log line with the audit trail.
 */
import type { RequestHandler, Response } from 'express';
import { randomUUID } from 'node:crypto';

const REQUEST_ID_LOCAL = 'fwManagementRequestId';
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/** Middleware: picks the id and answers it in `X-Request-Id`. */
export function assignRequestId(): RequestHandler {
  return (req, res, next) => {
    const raw = req.headers['x-request-id'];
    const given = Array.isArray(raw) ? raw[0] : raw;
    const id = given !== undefined && ACCEPTED.test(given) ? given : randomUUID();
    res.locals[REQUEST_ID_LOCAL] = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}

/** The id {@link assignRequestId} chose. */
export function requestIdOf(res: Response): string {
  const id: unknown = res.locals[REQUEST_ID_LOCAL];
  return typeof id === 'string' ? id : 'none';
}
