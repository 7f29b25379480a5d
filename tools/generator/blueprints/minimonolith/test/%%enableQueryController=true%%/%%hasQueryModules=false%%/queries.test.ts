// enableQueryController=y: the sample named query at POST /q/catalog-items: a filter, a sort,
// pagination, a refused unknown filter; and the query service listed at /info{{#security}}; a search
// without a bearer token is refused{{/security}}.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authHeaders, call, start, type Envelope, type Running } from './support';

interface Page {
  list: Array<{ row: { id: number; name: string; price: number } }>;
  maxRows: number | null;
}

describe('named queries', () => {
  let host: Running;
  before(async () => {
    host = await start();
  });
  after(() => host.close());
  const search = async (body: unknown) => call<Envelope<Page>>(`${host.url}/q/catalog-items`, { method: 'POST', headers: await authHeaders(), body: JSON.stringify(body) });

  it('filters by a like query and sorts by price, highest first', async () => {
    const { status, body } = await search({ filters: { name: 'lamp' }, sortCriteria: [{ name: 'price', ascendingOrder: false }] });
    assert.equal(status, 200);
    assert.deepEqual(body.payload.list.map((r) => r.row.name), ['Floor lamp', 'Desk lamp']);
  });

  it('pages: two rows per page, the second page', async () => {
    const { body } = await search({ sortCriteria: [{ name: 'id', ascendingOrder: true }], pageNum: 2, numRowsInPage: 2 });
    assert.deepEqual(body.payload.list.map((r) => r.row.id), [3, 4]);
  });

  it('refuses a filter the definition does not allow with a 400 envelope', async () => {
    const { status, body } = await search({ filters: { price: 10 } });
    assert.equal(status, 400);
    assert.equal(body.success, false);
  });

  it('lists the query service at /info', async () => {
    const { body } = await call<Envelope<{ services: Array<{ name: string; kind: string }> }>>(`${host.url}/info`);
    assert.ok(body.payload.services.some((s) => s.name === 'query' && s.kind === 'query'));
  });
{{#security}}

  it('refuses a search without a bearer token with a 401 envelope', async () => {
    const { status, body } = await call<Envelope<unknown>>(`${host.url}/q/catalog-items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(status, 401);
    assert.equal(body.subErrorCode, 'AUTH401');
  });
{{/security}}
});
