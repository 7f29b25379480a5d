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
import { makeResponseContract, type OpenApiLike, type ResponseContract } from '@fw/process-management';
import supertest, { type Response, type Test } from 'supertest';
import type { App } from 'supertest/types';

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'options' | 'head';
export type CheckedAgent = Record<Method, (url: string) => Test>;

function assertConforms(contract: ResponseContract, method: string, url: string, res: Response): void {
  const problems = contract.problemsOf({
    method,
    path: new URL(url, 'http://localhost').pathname,
    status: res.status,
    contentType: res.headers['content-type'],
    text: res.text ?? '',
    headers: res.headers as Record<string, unknown>,
  });
  if (problems.length > 0) throw new Error(`The answer breaks the admin server's OpenAPI document:\n  ${problems.join('\n  ')}`);
}

function isDocument(body: unknown): body is OpenApiLike {
  return typeof body === 'object' && body !== null && typeof (body as { paths?: unknown }).paths === 'object';
}

/** The document `app` serves at /openapi.json. */
export async function servedDocument(app: App | string): Promise<OpenApiLike> {
  const res = await supertest(app).get('/openapi.json');
  const body: unknown = res.body;
  if (res.status !== 200 || !isDocument(body)) throw new Error(`GET /openapi.json answered ${res.status} without a document`);
  return body;
}

/** A supertest factory whose answers are checked against the document `app` serves. */
export async function checkedAgainst(app: App | string): Promise<(target: App | string) => CheckedAgent> {
  const document = await servedDocument(app);
  const contract = makeResponseContract(document);
  return (target) => {
    const agent = supertest(target);
    const checked = (method: Method) => (url: string) => agent[method](url).expect((res: Response) => assertConforms(contract, method.toUpperCase(), url, res));
    return { get: checked('get'), post: checked('post'), put: checked('put'), delete: checked('delete'), patch: checked('patch'), options: checked('options'), head: checked('head') };
  };
}
