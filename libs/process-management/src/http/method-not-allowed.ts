/**
 * 405 with `Allow` for a method a documented path of the administration API does not take (other
 * methods on a known path answer 405), decided from the request line alone (before the tenant
 * header or the body is looked at). The matching is core's (`@fw/core/http`); the body is the
 * API's error envelope (`PM405`).
 *
 * @example
 * router.use(makeMethodNotAllowed([{ method: 'get', path: '/info' }]));
 * // PATCH /info → 405, Allow: GET, HEAD, { success: false, code: 405, subErrorCode: 'PM405', message: 'Method PATCH is not allowed on …', … }
 */
import { makeMethodNotAllowed as makeCoreMethodNotAllowed } from '@fw/core/http';
import type { RequestHandler } from 'express';
import { managementErrorBody } from './management-errors';

export function makeMethodNotAllowed(operations: ReadonlyArray<{ method: string; path: string }>): RequestHandler {
  return makeCoreMethodNotAllowed(operations, { body: (message) => managementErrorBody(405, message) });
}
