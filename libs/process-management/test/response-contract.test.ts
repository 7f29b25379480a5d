import { errorEnvelope, FwError } from '@fw/core';
import { buildOpenApiDocument, makeResponseContract, type ReceivedAnswer } from '../src';

const API = '/process-management/api';
const contract = makeResponseContract(buildOpenApiDocument(API));
const INFO = {
  definitionSource: 'database',
  definitionsWritable: true,
  cronAvailable: true,
  supportedEvents: ['ProcessCreate'],
};

/** An error body as the API writes it. */
function failure(status: number, message: string): unknown {
  return errorEnvelope(new FwError({ code: status, subErrorCode: `PM${status}`, description: message }));
}

function answer(partial: Partial<ReceivedAnswer> & { body?: unknown }): ReceivedAnswer {
  const { body, ...rest } = partial;
  return {
    method: 'GET',
    path: `${API}/info`,
    status: 200,
    contentType: 'application/json; charset=utf-8',
    text: body === undefined ? '' : JSON.stringify(body),
    headers: {},
    ...rest,
  };
}

describe('the response contract of the administration API document', () => {
  it('accepts answers that follow the document', () => {
    expect(contract.problemsOf(answer({ body: INFO }))).toEqual([]);
    expect(contract.problemsOf(answer({ method: 'DELETE', path: `${API}/crontabs/abc`, status: 204 }))).toEqual([]);
    expect(
      contract.problemsOf(
        answer({ method: 'PATCH', status: 405, headers: { allow: 'GET, HEAD' }, body: failure(405, 'no') }),
      ),
    ).toEqual([]);
    expect(
      contract.problemsOf(
        answer({ method: 'PATCH', status: 401, body: failure(401, 'Missing header X-Process-Management-Key') }),
      ),
    ).toEqual([]);
  });

  it('finds the operation by method and the most specific template', () => {
    expect(contract.operationOf('POST', `${API}/definitions/refresh`)).toBe(`POST ${API}/definitions/refresh`);
    expect(contract.operationOf('GET', `${API}/definitions/refresh`)).toBe(`GET ${API}/definitions/{name}`);
    expect(contract.operationOf('HEAD', `${API}/crontabs/x`)).toBe(`HEAD ${API}/crontabs/{id}`);
    expect(contract.operationOf('PATCH', `${API}/crontabs/x`)).toBeUndefined();
  });

  it('reports unknown fields, missing fields, wrong types, undocumented statuses, stray bodies and a wrong Allow', () => {
    const problems = (a: ReceivedAnswer) => contract.problemsOf(a).join('\n');
    expect(problems(answer({ body: { ...INFO, extra: 1 } }))).toMatch(/'body.extra' is not an allowed field/);
    expect(problems(answer({ body: { ...INFO, cronAvailable: undefined } }))).toMatch(
      /'body.cronAvailable' is required/,
    );
    expect(problems(answer({ body: { ...INFO, cronAvailable: 'yes' } }))).toMatch(
      /'body.cronAvailable' must be true or false/,
    );
    expect(problems(answer({ status: 409, body: failure(409, 'x') }))).toMatch(
      /status 409 is not documented for GET .*\/info/,
    );
    expect(problems(answer({ status: 400, body: { ...(failure(400, 'x') as object), stack: 'at …' } }))).toMatch(
      /'body.stack' is not an allowed field/,
    );
    expect(problems(answer({ method: 'DELETE', path: `${API}/crontabs/abc`, status: 204, text: '{}' }))).toMatch(
      /no body is documented/,
    );
    expect(
      problems(answer({ method: 'PATCH', status: 405, headers: { allow: 'GET' }, body: failure(405, 'no') })),
    ).toMatch(/Allow must be 'GET, HEAD'/);
    expect(problems(answer({ method: 'PATCH', status: 404, body: failure(404, 'no') }))).toMatch(
      /expected 405, got 404/,
    );
    expect(problems(answer({ contentType: 'text/html', text: '<h1>hi</h1>' }))).toMatch(
      /Content-Type must be application\/json/,
    );
    expect(problems(answer({ path: '/elsewhere' }))).toMatch(/no documented path matches/);
  });
});
