/**
 * supertest with every answer checked against a response contract (an OpenAPI document's
 * statuses, strict body schemas and required headers): an answer that breaks it fails the
 * request's promise, so drift between a server and its document fails the test that met it.
 *
 * @example
 * const request = checkedSupertest(makeResponseContract(document), 'the administration API document');
 * await request(app).get('/process-management/api/definitions').expect(200); // also rejects on drift
 */
import supertest, { type Response, type Test } from 'supertest';
import type { App } from 'supertest/types';

/** One answer as a contract judges it. */
export interface CheckedAnswer {
  method: string;
  /** The request path without the query string. */
  path: string;
  status: number;
  contentType: string | undefined;
  /** The raw body ('' when there is none). */
  text: string;
  headers: Record<string, unknown>;
}

/** What the checked agent needs of a contract (process-management's ResponseContract is one). */
export interface AnswerContract {
  /** What is wrong with the answer; empty when it conforms. */
  problemsOf(answer: CheckedAnswer): string[];
}

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'options' | 'head';

/** supertest's agent methods, each answer checked. */
export type CheckedAgent = Record<Method, (url: string) => Test>;

/** Throws naming every problem of `res` (the request was `method url`); `documentName` says whose rules. */
export function assertConforms(
  contract: AnswerContract,
  documentName: string,
  method: string,
  url: string,
  res: Response,
): void {
  const problems = contract.problemsOf({
    method,
    path: new URL(url, 'http://localhost').pathname,
    status: res.status,
    contentType: res.headers['content-type'],
    text: res.text ?? '',
    headers: res.headers as Record<string, unknown>,
  });
  if (problems.length > 0) throw new Error(`The answer breaks ${documentName}:\n  ${problems.join('\n  ')}`);
}

/** `request(app).get(url)` as with supertest, each answer checked against `contract`. */
export function checkedSupertest(contract: AnswerContract, documentName: string): (app: App | string) => CheckedAgent {
  return (app) => {
    const agent = supertest(app);
    const checked = (method: Method) => (url: string) =>
      agent[method](url).expect((res: Response) =>
        assertConforms(contract, documentName, method.toUpperCase(), url, res),
      );
    return {
      get: checked('get'),
      post: checked('post'),
      put: checked('put'),
      delete: checked('delete'),
      patch: checked('patch'),
      options: checked('options'),
      head: checked('head'),
    };
  };
}
