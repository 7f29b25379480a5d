// The query over HTTP on the seeded table: a filter, a sort, pagination, and the refusals the
// definition's allow-list makes (an undeclared filter, a column that is not sortable).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { callerHeaders, start, type Running } from './support';

let running: Running;
let headers: Record<string, string>;
before(async () => {
  running = await start();
  headers = await callerHeaders();
});
after(() => running.stop());

test('a like filter on name (case-insensitive) and an equality filter on category', async () => {
  const { status, body } = await running.search({ filters: { name: 'LAMP', category: 'lighting' }, sortCriteria: [{ name: 'id' }] }, headers);
  assert.equal(status, 200);
  assert.deepEqual(body.payload.list.map((item) => item.row.name), ['Desk lamp', 'Floor lamp', 'Pendant lamp']);
  assert.equal(body.payload.maxRows, 3);
});

test('like filters escape % and _: "100%" matches the literal text only', async () => {
  const { body } = await running.search({ filters: { name: '100%' } }, headers);
  assert.deepEqual(body.payload.list.map((item) => item.row.id), [12]);
});

test('a between filter on price, sorted by price descending', async () => {
  const { body } = await running.search({ filters: { price: [50, 200] }, sortCriteria: [{ name: 'price', ascendingOrder: false }] }, headers);
  assert.deepEqual(body.payload.list.map((item) => item.row.price), [189.5, 159, 129, 89, 74.5, 59.99]);
});

test('pagination: page 2 of 5 rows, with the total count', async () => {
  const { body } = await running.search({ pageNum: 2, numRowsInPage: 5, sortCriteria: [{ name: 'createdOn' }] }, headers);
  assert.deepEqual(body.payload.list.map((item) => item.row.id), [6, 7, 8, 9, 10]);
  assert.equal(body.payload.list[0].row.createdOn, '2024-04-09');
  assert.deepEqual([body.payload.currentPage, body.payload.maxRows, body.payload.maxPages, body.payload.pagination.nextPageAvailable], [2, 12, 3, true]);
});

test('a filter the definition does not allow is refused with 400 Q725', async () => {
  const { status, body } = await running.search({ filters: { id: 1 } }, headers);
  assert.equal(status, 400);
  assert.deepEqual([body.success, body.subErrorCode], [false, 'Q725']);
});

test('a sort on a column that is not sortable is refused with 400 Q726; an unknown query is 404', async () => {
  const sort = await running.search({ sortCriteria: [{ name: 'colour' }] }, headers);
  assert.deepEqual([sort.status, sort.body.subErrorCode], [400, 'Q726']);
  const unknown = await running.search({}, headers, 'no-such-query');
  assert.deepEqual([unknown.status, unknown.body.subErrorCode], [404, 'Q700']);
});
