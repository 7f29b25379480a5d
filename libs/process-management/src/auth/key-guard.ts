/**
 * The administration key (`fw.process.management.api-key`, header `X-Process-Management-Key`).
 * The header is compared with the key in constant time: both are hashed with SHA-256 and the two
 * equal-length digests are compared with `crypto.timingSafeEqual`, so neither the key's length nor
 * its content leaks through timing. The key is never logged.
 *
 * @example
 * const guard = makeManagementKeyGuard(process.env.PROCESS_MANAGEMENT_API_KEY ?? '');
 * app.use('/process', guard);                       // protect-all-http-routes: also the /process routes
 * app.use(makeProcessManagementRouter({ apiKey, ... }));
 */
import { ConfigError } from '@fw/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { managementErrorBody } from '../http/management-errors';

/** Header carrying the administration key. */
export const MANAGEMENT_KEY_HEADER = 'x-process-management-key';

/** Shortest accepted key, in characters. */
export const MIN_MANAGEMENT_KEY_LENGTH = 32;

export interface ManagementKeyGuardOptions {
  /**
   * Writes the 401 body (default: the error envelope with `PM401`, whose `message` is the
   * refusal, as every error of the administration API).
   */
  unauthorizedBody?: (message: string) => unknown;
}

/**
 * Checks a configured key: at least 32 characters, not only blanks.
 * @throws ConfigError naming the setting when the key is unsuitable.
 */
export function assertManagementKey(key: string | undefined, setting = 'fw.process.management.api-key'): string {
  if (key === undefined || key.trim() === '')
    throw new ConfigError(
      `${setting} is not set: give an administration key of at least ${MIN_MANAGEMENT_KEY_LENGTH} characters`,
    );
  if (key.length < MIN_MANAGEMENT_KEY_LENGTH) {
    throw new ConfigError(
      `${setting} is too short (${key.length} characters): give an administration key of at least ${MIN_MANAGEMENT_KEY_LENGTH} characters`,
    );
  }
  return key;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time check of a presented key against the expected one. */
export function managementKeyMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(digest(expected), digest(presented));
}

/**
 * Express middleware answering 401 (error envelope, `PM401`) unless the request carries the key in
 * `X-Process-Management-Key`.
 * @throws ConfigError when the key is shorter than 32 characters.
 */
export function makeManagementKeyGuard(key: string, options: ManagementKeyGuardOptions = {}): RequestHandler {
  const expected = assertManagementKey(key);
  const body = options.unauthorizedBody ?? ((message: string) => managementErrorBody(401, message));
  return (req, res, next) => {
    const raw = req.headers[MANAGEMENT_KEY_HEADER];
    const presented = Array.isArray(raw) ? raw[0] : raw;
    if (presented === undefined || presented === '') {
      res.status(401).json(body(`Missing header X-Process-Management-Key`));
      return;
    }
    if (!managementKeyMatches(expected, presented)) {
      res.status(401).json(body(`Invalid X-Process-Management-Key`));
      return;
    }
    next();
  };
}
