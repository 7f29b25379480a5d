// The serverless handler: an API-gateway-style event in, a status code and an envelope body out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { handler } from '../src';

test('a POST /quote invocation answers 200 with the envelope', async () => {
  const result = await handler({ pathParameters: { operation: 'quote' }, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ sku: 'C-3', quantity: 1, unitPrice: 9.99 }) });
  assert.equal(result.statusCode, 200);
  assert.deepEqual(JSON.parse(result.body), { success: true, code: 200, payload: { sku: 'C-3', quantity: 1, discountPercent: 0, total: 9.99 } });
});

test('a base64 body and the operation in the event itself work too', async () => {
  const body = Buffer.from(JSON.stringify({ sku: 'C-3', quantity: 20, unitPrice: 1 })).toString('base64');
  const result = await handler({ operation: 'quote', body, isBase64Encoded: true });
  assert.equal(JSON.parse(result.body).payload.total, 18);
});

test('broken JSON, a missing operation and a bad input are 400 envelopes', async () => {
  for (const event of [{ operation: 'quote', body: '{' }, { body: '{}' }, { operation: 'quote', body: '{"sku":""}' }]) {
    const result = await handler(event);
    assert.equal(result.statusCode, 400);
    assert.equal(JSON.parse(result.body).success, false);
  }
});
