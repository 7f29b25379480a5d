// The query modules {{monolith}} serves ({{#queryModules}}{{package}} {{/queryModules}}): each module's
// named query over this host's database, seeded by the module's own migration. The rows asserted
// are those of the mapperQuery blueprint's seed (twelve items: lamps, desks, …); a module whose
// seed you changed needs these expectations changed with it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
{{#queryModules}}
import { QUERY_NAME as {{alias}}Query } from '{{package}}';
{{/queryModules}}
import { authHeaders, call, start, type Envelope, type Running } from './support';

interface Item {
  id: number;
  name: string;
  category: string;
  price: number;
}

interface Page {
  list: Array<{ row: Item }>;
  maxRows: number;
  currentPage: number;
}

let host: Running;
before(async () => {
  host = await start();
});
after(() => host.close());

const search = async (query: string, body: unknown) => call<Envelope<Page>>(`${host.url}/q/${query}`, { method: 'POST', headers: await authHeaders(), body: JSON.stringify(body) });

for (const query of [{{#queryModules}}{{alias}}Query, {{/queryModules}}]) {
  describe(`POST /q/${query}`, () => {
    it('filters by name (like) and category, sorted by price, highest first', async () => {
      const { status, body } = await search(query, { filters: { name: 'lamp', category: 'lighting' }, sortCriteria: [{ name: 'price', ascendingOrder: false }] });
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.payload.list.map((r) => r.row.name), ['Floor lamp', 'Pendant lamp', 'Desk lamp']);
      assert.equal(body.payload.maxRows, 3);
    });

    it('pages: the second page of five, by id, with the total count', async () => {
      const { body } = await search(query, { sortCriteria: [{ name: 'id', ascendingOrder: true }], pageNum: 2, numRowsInPage: 5 });
      assert.deepEqual(body.payload.list.map((r) => r.row.id), [6, 7, 8, 9, 10]);
      assert.deepEqual([body.payload.currentPage, body.payload.maxRows], [2, 12]);
    });

    it('refuses a filter its definition does not allow with a 400 envelope', async () => {
      const { status, body } = await search(query, { filters: { id: 1 } });
      assert.equal(status, 400);
      assert.equal(body.success, false);
    });
{{#security}}

    it('refuses a search without a bearer token with a 401 envelope', async () => {
      const { status } = await call(`${host.url}/q/${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(status, 401);
    });
{{/security}}
  });
}

it('lists the module queries as operations of the query service', async () => {
  const { body } = await call<Envelope<{ operations: Array<{ name: string }> }>>(`${host.url}/service-info/query`);
  const names = body.payload.operations.map((o) => o.name);
  for (const query of [{{#queryModules}}{{alias}}Query, {{/queryModules}}]) assert.ok(names.includes(query), `${query} not in ${names.join()}`);
});
