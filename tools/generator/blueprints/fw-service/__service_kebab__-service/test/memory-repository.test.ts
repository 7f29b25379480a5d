// The in-memory store: per-tenant records, op1's rule, copies handed out (a caller changing what it
// got does not change the store).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeMemory{{servicePascal}}Repository } from '../src/memory-repository';

test('creates, reads and keeps tenants apart; hands out copies', async () => {
  const repository = makeMemory{{servicePascal}}Repository();
  const created = await repository.create('a', { name: 'bolts', quantity: 7 });
  created.quantity = 1000;
  assert.equal((await repository.get('a', created.id))?.quantity, 7);
  assert.equal(await repository.get('b', created.id), undefined);
});

test('adjust adds, refuses a negative result, and tells an unknown id apart', async () => {
  const repository = makeMemory{{servicePascal}}Repository();
  const { id } = await repository.create('a', { name: 'nuts', quantity: 1 });
  assert.deepEqual(await repository.adjust('a', id, 2), { kind: 'adjusted', previousQuantity: 1, quantity: 3 });
  assert.deepEqual(await repository.adjust('a', id, -4), { kind: 'refused', quantity: 3 });
  assert.deepEqual(await repository.adjust('a', 'missing', 1), { kind: 'absent' });
  await repository.close();
  assert.equal(await repository.get('a', id), undefined);
});
