// In-process calls: the registry checks the input against the operation's schema before the
// handler runs, and describes the service as headless (no HTTP binding).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { make{{servicePascal}}Registry, SERVICE_NAME } from '../src';

const registry = make{{servicePascal}}Registry();

test('quote prices a quantity, with the bulk discount from 10 units', async () => {
  assert.deepEqual(await registry.invoke(SERVICE_NAME, 'quote', { sku: 'A-1', quantity: 2, unitPrice: 2.5 }), { sku: 'A-1', quantity: 2, discountPercent: 0, total: 5 });
  assert.deepEqual(await registry.invoke(SERVICE_NAME, 'quote', { sku: 'A-1', quantity: 10, unitPrice: 3 }), { sku: 'A-1', quantity: 10, discountPercent: 10, total: 27 });
});

test('an input breaking the schema is refused with 400 naming the field', async () => {
  await assert.rejects(registry.invoke(SERVICE_NAME, 'quote', { sku: 'A-1', quantity: 0, unitPrice: 1 }), (err: { code: number; subErrorCode: string; field?: string }) => {
    assert.equal(err.code, 400);
    assert.equal(err.subErrorCode, 'SVC400');
    assert.equal(err.field, 'input.quantity');
    return true;
  });
});

test('an unknown operation is 404', async () => {
  await assert.rejects(registry.invoke(SERVICE_NAME, 'refund', {}), (err: { code: number }) => err.code === 404);
});

test('the service is headless: no HTTP binding, healthy', async () => {
  const description = registry.describe(SERVICE_NAME);
  assert.equal(description.kind, 'headless');
  assert.ok(description.operations.every((op) => op.method === undefined && op.path === undefined));
  assert.equal((await registry.health(SERVICE_NAME)).healthy, true);
});
