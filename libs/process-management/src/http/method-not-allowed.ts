/**
 * 405 `{ message }` with `Allow` for a method a documented path of the administration API does not
 * take (other methods on a known path answer 405), decided from the request line alone (before the tenant header or the body
 * is looked at). The matching is core's (`@fw/core/http`); only the body is this API's.
 *
 * @example
 * router.use(makeMethodNotAllowed([{ method: 'get', path: '/info' }]));
 * // PATCH /info → 405, Allow: GET, HEAD, { message: 'Method PATCH is not allowed on …' }
 */
import { makeMethodNotAllowed as makeCoreMethodNotAllowed } from '@fw/core/http';
import type { RequestHandler } from 'express';
import type { ManagementErrorBody } from './management-errors';

export function makeMethodNotAllowed(operations: ReadonlyArray<{ method: string; path: string }>): RequestHandler {
  return makeCoreMethodNotAllowed(operations, { body: (message): ManagementErrorBody => ({ message }) });
}
