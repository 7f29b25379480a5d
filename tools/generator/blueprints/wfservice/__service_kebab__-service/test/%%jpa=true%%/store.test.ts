// The kysely store: fw_workflow_entity created by the framework migration, entities surviving a
// restart (a PGlite folder here; PostgreSQL by DATABASE_URL the same way), migrations applied once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { makeServiceRegistry } from '@fw/service';
import { make{{servicePascal}}Service, openStore } from '../src';
import { CREATE_BODY, {{#security}}signToken, TEST_SECRET, {{/security}}type WorkflowAnswer } from './support';

describe('{{service}}: the database store', () => {
  const dir = mkdtempSync(path.join(tmpdir(), '{{serviceKebab}}-store-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps entities, their state and version across a restart', async () => {
    const url = `pglite:${dir}`;
    const first = await openStore(url);
    const service = await make{{servicePascal}}Service({ store: first.store{{#security}}, security: { secret: TEST_SECRET }{{/security}} });
    const registry = makeServiceRegistry({ host: { name: 'store-test', version: '1.0.0' }, services: [service] });
    const headers: Record<string, string> = {{#security}}{ authorization: `Bearer ${await signToken()}` }{{/security}}{{^security}}{}{{/security}};
    const created = (await registry.invoke(service.name, 'create', CREATE_BODY, { tenant: 'acme', headers })) as WorkflowAnswer;
    await first.close();

    const second = await openStore(url);
    try {
      const found = await second.store.find(service.name, created.mutatedEntity.id);
      assert.equal(found?.state.stateId, created.mutatedEntity.state.stateId);
      assert.equal(found?.version, 1);
      assert.equal(found?.tenant, 'acme');
    } finally {
      await second.close();
    }
  });
});
