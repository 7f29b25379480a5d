/**
 * supertest, with every answer checked against the administration API's OpenAPI document: a
 * status the document does not list for the operation, a body that breaks its schema (strict:
 * no unknown fields), or a 405 without the right `Allow` fails the request's promise, so drift
 * between the server and its document fails the test that met it.
 *
 * @example
 * const res = await request(app).post(`${API}/crontabs`).set(auth()).send(body); // rejects on drift
 */
import supertest, { type Response, type Test } from 'supertest';
import type { App } from 'supertest/types';
import { buildOpenApiDocument, makeResponseContract, type ResponseContract } from '../src';
import { API } from './support';

export const DOCUMENT = buildOpenApiDocument(API);
export const CONTRACT: ResponseContract = makeResponseContract(DOCUMENT);

/** Throws naming every problem of `res` (the request was `method url`). */
export function assertConforms(contract: ResponseContract, method: string, url: string, res: Response): void {
  const problems = contract.problemsOf({
    method,
    path: new URL(url, 'http://localhost').pathname,
    status: res.status,
    contentType: res.headers['content-type'],
    text: res.text ?? '',
    headers: res.headers as Record<string, unknown>,
  });
  if (problems.length > 0) throw new Error(`The answer breaks the OpenAPI document:\n  ${problems.join('\n  ')}`);
}

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'options' | 'head';

export type CheckedAgent = Record<Method, (url: string) => Test>;

/** `request(app).get(url)` as with supertest, each answer checked against `contract`. */
export function checkedRequest(contract: ResponseContract): (app: App | string) => CheckedAgent {
  return (app) => {
    const agent = supertest(app);
    const checked = (method: Method) => (url: string) => agent[method](url).expect((res: Response) => assertConforms(contract, method.toUpperCase(), url, res));
    return { get: checked('get'), post: checked('post'), put: checked('put'), delete: checked('delete'), patch: checked('patch'), options: checked('options'), head: checked('head') };
  };
}

/** supertest checked against the administration API's document. */
export const request = checkedRequest(CONTRACT);
