// The database store on PGlite (always, in a folder: it also shows records surviving a restart) and
// on PostgreSQL (when FW_TEST_DATABASE_URL names one, e.g. postgres://postgres@127.0.0.1:5432/test):
// migrations applied once, records kept per tenant, op1's check-and-change in one statement even
// under concurrent callers.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { open{{servicePascal}}DatabaseRepository } from '../src/database-repository';
import type { {{servicePascal}}Repository } from '../src/repository';

const dir = mkdtempSync(path.join(tmpdir(), '{{serviceKebab}}-db-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const targets = [
  { name: 'PGlite', url: `pglite:${dir}` as string | undefined },
  { name: 'PostgreSQL', url: process.env.FW_TEST_DATABASE_URL || undefined },
];

for (const target of targets) {
  describe(`the database repository on ${target.name}`, { skip: target.url === undefined ? 'set FW_TEST_DATABASE_URL to run it' : false }, () => {
    const url = target.url as string;
    // A tenant per run: runs against a shared PostgreSQL do not see each other's rows.
    const tenant = `t-${randomUUID()}`;
    let repository: {{servicePascal}}Repository;
    before(async () => {
      repository = await open{{servicePascal}}DatabaseRepository({ url });
    });
    after(() => repository.close());

    test('creates, reads and keeps tenants apart', async () => {
      const created = await repository.create(tenant, { name: 'bolts', quantity: 7 });
      assert.deepEqual(await repository.get(tenant, created.id), created);
      assert.equal(await repository.get(`${tenant}-other`, created.id), undefined);
      assert.equal(await repository.get(tenant, 'missing'), undefined);
      await repository.ping();
    });

    test('op1 under concurrent callers never loses an update nor goes below zero', async () => {
      const { id } = await repository.create(tenant, { name: 'nuts', quantity: 5 });
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => repository.adjust(tenant, id, -1)));
      assert.equal(outcomes.filter((o) => o.kind === 'adjusted').length, 5);
      assert.equal(outcomes.filter((o) => o.kind === 'refused').length, 3);
      assert.equal((await repository.get(tenant, id))?.quantity, 0);
      assert.deepEqual(await repository.adjust(tenant, 'missing', 1), { kind: 'absent' });
    });

    test('records survive closing and opening again; migrating again changes nothing', async () => {
      const created = await repository.create(tenant, { name: 'kept', quantity: 1 });
      await repository.close();
      repository = await open{{servicePascal}}DatabaseRepository({ url });
      assert.deepEqual(await repository.get(tenant, created.id), created);
    });
  });
}
