/**
 * supertest with every answer checked against the admin server's own `/openapi.json` (the host
 * document: the administration API, the `/process` endpoints and the info endpoints): an
 * undocumented status, a body that breaks its strict schema, or a 405 without the right `Allow`
 * fails the request's promise.
 *
 * @example
 * const request = await checkedAgainst(server.app);
 * await request(server.app).get('/info');   // rejects when the answer drifts from the document
 */
import { makeResponseContract, type OpenApiLike } from '@fw/process-management';
import { checkedSupertest, type CheckedAgent } from '@fw/test-support';
import supertest from 'supertest';
import type { App } from 'supertest/types';

export type { CheckedAgent };

function isDocument(body: unknown): body is OpenApiLike {
  return typeof body === 'object' && body !== null && typeof (body as { paths?: unknown }).paths === 'object';
}

/** The document `app` serves at /openapi.json. */
export async function servedDocument(app: App | string): Promise<OpenApiLike> {
  const res = await supertest(app).get('/openapi.json');
  const body: unknown = res.body;
  if (res.status !== 200 || !isDocument(body))
    throw new Error(`GET /openapi.json answered ${res.status} without a document`);
  return body;
}

/** A supertest factory whose answers are checked against the document `app` serves. */
export async function checkedAgainst(app: App | string): Promise<(target: App | string) => CheckedAgent> {
  return checkedSupertest(makeResponseContract(await servedDocument(app)), "the admin server's OpenAPI document");
}
