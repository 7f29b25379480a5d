// {{entity}} CRUD over HTTP against the target (see src/target.ts: IT_BASE_URL, IT_APP_COMMAND,
// or the reference app): create, read back, an unknown id, a bad body{{#security}}, and no token{{/security}}.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { make{{entityPascal}}Client, startTarget, type {{entityPascal}}Client, type Target } from '../src';
{{#security}}
import { signToken } from '../src/jwt';
{{/security}}

let target: Target;
let client: {{entityPascal}}Client;

before(async () => {
  target = await startTarget();
{{#security}}
  client = make{{entityPascal}}Client(target.baseUrl, { authorization: `Bearer ${await signToken(target.jwt)}` });
{{/security}}
{{^security}}
  client = make{{entityPascal}}Client(target.baseUrl);
{{/security}}
});
after(() => target.stop());

test('create answers 200 with the new {{entity}}, which reads back the same', async () => {
  const name = `it-${randomUUID()}`;
  const created = await client.create({ name });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.ok(created.body.success);
  assert.equal(created.body.payload.name, name);
  assert.equal(typeof created.body.payload.id, 'string');

  const read = await client.read(created.body.payload.id);
  assert.equal(read.status, 200);
  assert.deepEqual(read.body, created.body);
});

test('an unknown id is 404 with the error envelope', async () => {
  const read = await client.read(`missing-${randomUUID()}`);
  assert.equal(read.status, 404);
  assert.ok(!read.body.success);
  assert.equal(read.body.code, 404);
  assert.equal(read.body.errors[0].code, '404');
});

test('a bad body is 400 with the envelope naming the field', async () => {
  for (const body of [{}, { name: '' }, { name: 42 }]) {
    const created = await client.create(body);
    assert.equal(created.status, 400, JSON.stringify(body));
    assert.ok(!created.body.success);
    assert.equal(created.body.subErrorCode, 'SVC400');
    assert.equal(created.body.errors[0].field, 'body.name');
  }
});
{{#security}}

test('a request without a token, or with one signed by another secret, is refused with 401', async () => {
  const anonymous = make{{entityPascal}}Client(target.baseUrl);
  const forged = make{{entityPascal}}Client(target.baseUrl, { authorization: `Bearer ${await signToken({ ...target.jwt, secret: `not-${target.jwt.secret}` })}` });
  for (const caller of [anonymous, forged]) {
    const created = await caller.create({ name: 'refused' });
    assert.equal(created.status, 401);
    assert.ok(!created.body.success);
    assert.equal(created.body.code, 401);
  }
});
{{/security}}
