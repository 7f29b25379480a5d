// security = yes: the query routes need a bearer JWT signed with the configured secret.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signToken, start, type Running } from './support';

let running: Running;
before(async () => {
  running = await start();
});
after(() => running.stop());

test('a signed token is accepted', async () => {
  const { status, body } = await running.search({ numRowsInPage: 1 }, { authorization: `Bearer ${await signToken()}` });
  assert.equal(status, 200);
  assert.equal(body.payload.maxRows, 12);
});

test('no token, a token signed with another secret, and a garbled token are 401', async () => {
  const other = await signToken('another-secret-that-is-32-characters-long');
  const attempts: Array<Record<string, string>> = [{}, { authorization: `Bearer ${other}` }, { authorization: 'Bearer not.a.token' }, { authorization: 'Basic dXNlcjpwdw==' }];
  for (const headers of attempts) {
    const res = await fetch(`${running.baseUrl}/q/any`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer');
    const body = (await res.json()) as { success: boolean; subErrorCode: string };
    assert.deepEqual([body.success, body.subErrorCode], [false, 'AUTH401']);
  }
});

test('GET /q, the listing, is protected too', async () => {
  assert.equal((await fetch(`${running.baseUrl}/q`)).status, 401);
  const listed = await fetch(`${running.baseUrl}/q`, { headers: { authorization: `Bearer ${await signToken()}` } });
  assert.equal(listed.status, 200);
});
