/**
 * What a new user does with a host's `/openapi.json`: generate types with openapi-typescript
 * (default options), write a small client on openapi-fetch, compile it with a strict `tsc`, and
 * lint the document with Redocly's recommended rules. For the admin server (dev profile: every
 * service it can serve) and the query host's demo, started here on free ports:
 *
 * - the clients in `clients/` compile against the generated types with no error;
 * - they run against the live hosts (a process with free-form args, a manual trigger, the
 *   process list, a crontab created with the fields it needs and partly updated, a definition
 *   with a free-form inputSchema; a named query);
 * - the lint reports no error and no warning, for these two documents and for the administration
 *   API's own (`/process-management/api/openapi.json`).
 */
import { describeEachDatabase } from '@fw/test-support';
import {
  ADMIN_KEY,
  fetchDocument,
  startAdminHost,
  startQueryHost,
  TENANT,
  type ContractHost,
  type OpenApiJson,
} from '../src/contract-hosts';
import { loadAdminClient, loadQueryClient } from '../src/client-loader';
import { compileClients, writeGeneratedTypes } from '../src/generated-client';
import { lintDocument } from '../src/redocly-lint';

describeEachDatabase('clients generated from the served documents', (getDb) => {
  let admin: ContractHost;
  let query: ContractHost;
  const documents = new Map<string, OpenApiJson>();

  beforeAll(async () => {
    admin = await startAdminHost(getDb());
    query = await startQueryHost();
    for (const host of [admin, query]) {
      const document = await fetchDocument(host);
      documents.set(host.name, document);
      await writeGeneratedTypes(host.name, document);
    }
    // The administration API's own document, which the admin server also serves.
    documents.set('process-management', await fetchDocument(admin, '/process-management/api/openapi.json'));
  }, 120_000);
  afterAll(async () => {
    await admin?.close();
    await query?.close();
  }, 60_000);

  it('compile with a strict tsc against the types openapi-typescript generates (no error)', () => {
    expect(compileClients([admin.name, query.name])).toEqual([]);
  });

  it("run against the admin server: free-form args, a trigger, the process list, a crontab's partial update keeping its zone, a definition", async () => {
    const result = await loadAdminClient().exerciseAdminServer(admin.url, ADMIN_KEY, TENANT);
    expect(result.createdArgs).toEqual({ texts: ['to be', 'or not to be'] });
    expect(result.triggerId).toBe(`manual:${TENANT}:client-${result.createdId}`);
    expect(result.listedTypes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(result.listedTypes)).toEqual(new Set(['word-count']));
    // Left out on create: the server fills UTC and enabled; left out of a partial update: the stored zone stays.
    expect({ timezone: result.crontab.timezone, enabled: result.crontab.enabled }).toEqual({
      timezone: 'UTC',
      enabled: true,
    });
    expect({
      id: result.updatedCrontab.id,
      timezone: result.updatedCrontab.timezone,
      enabled: result.updatedCrontab.enabled,
    }).toEqual({ id: result.crontab.id, timezone: 'Europe/Berlin', enabled: false });
    expect(result.definition.inputSchema).toEqual({ type: 'object', properties: { texts: { type: 'array' } } });
    expect(result.hostServices).toEqual(expect.arrayContaining(['process', 'process-management', 'support-ticket']));
  });

  it('run against the query host: a named query with a list filter, a sort and a page', async () => {
    const result = await loadQueryClient().exerciseQueryHost(query.url, TENANT);
    expect(result.titles.length).toBeGreaterThan(0);
    expect(result.titles.every((title) => typeof title === 'string')).toBe(true);
    expect(result.rowKeys).toContain('title');
    expect(result.services).toContain('query');
  });

  it.each(['admin-server', 'query-host', 'process-management'])(
    "%s: Redocly's recommended lint reports no error and no warning",
    async (name) => {
      const document = documents.get(name);
      if (document === undefined) throw new Error(`no document of ${name}`);
      const problems = await lintDocument(document);
      expect(problems.map((p) => `${p.severity} ${p.ruleId} ${p.pointer}: ${p.message}`)).toEqual([]);
    },
  );
});
