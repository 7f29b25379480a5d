// Bearer JWTs: no token, a token signed with another secret or an expired one is 401 before the
// operation runs; a valid token passes and names the caller. The flow's introspection stays open.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearerOptionsFromEnv } from '../src';
import { base, call, CREATE_BODY, signToken, start, type Running, type WorkflowAnswer } from './support';

describe('{{service}}: bearer JWT security', () => {
  let running: Running;
  before(async () => {
    running = await start();
  });
  after(() => running.close());

  it('refuses a call without a token, with a foreign one or an expired one (401 SVC401)', async () => {
    const tokens = ['', `Bearer ${await signToken('mallory', 'another-secret-that-is-32-characters-long')}`, `Bearer ${await signToken('late', undefined, '-1m')}`];
    for (const authorization of tokens) {
      const answer = await call(running, 'POST', base, CREATE_BODY, authorization === '' ? {} : { authorization });
      assert.equal(answer.status, 401);
      assert.equal(answer.body.subErrorCode, 'SVC401');
    }
  });

  it('accepts a valid token', async () => {
    const answer = await call<WorkflowAnswer>(running, 'POST', base, CREATE_BODY);
    assert.equal(answer.status, 200);
  });

  it('leaves the introspection endpoints readable without a token', async () => {
    const info = await call<{ flows: Array<{ id: string }> }>(running, 'GET', `${base}/info`, undefined, {});
    assert.equal(info.status, 200);
    const cases = await call(running, 'GET', `${base}/info/flows/${info.body.payload.flows[0].id}/test-cases`, undefined, {});
    assert.equal(cases.status, 200);
  });

  it('refuses to start without a secret of at least 32 characters', () => {
    assert.throws(() => bearerOptionsFromEnv({}), /{{serviceConstant}}_JWT_SECRET/);
    assert.throws(() => bearerOptionsFromEnv({ {{serviceConstant}}_JWT_SECRET: 'short' }), /at least 32/);
  });
});
