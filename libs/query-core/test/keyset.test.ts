import { isFwError } from '@fw/core';
import {
  decodeKeysetCursor,
  encodeKeysetCursor,
  makeInMemoryQueryProvider,
  type QueryDefinition,
  type QueryExecutionRequest,
} from '../src';
import { keysetCondition, keysetOrderBy } from '../src/keyset/keyset-sql';

const byAtThenId = [
  { field: 'at', column: 'e.at', ascending: true },
  { field: 'id', column: 'id', ascending: true },
];

describe('keyset SQL', () => {
  it('compares one row value when every key sorts the same way (an index range scan)', () => {
    expect(keysetCondition(byAtThenId, false, 3)).toBe('("q"."at", "q"."id") > ($3, $4)');
    expect(keysetCondition(byAtThenId, true, 1)).toBe('("q"."at", "q"."id") < ($1, $2)');
    expect(keysetOrderBy(byAtThenId, true)).toBe('ORDER BY "q"."at" DESC, "q"."id" DESC');
  });

  it('expands mixed directions into the equivalent OR form', () => {
    const mixed = [
      { field: 'at', column: 'at', ascending: false },
      { field: 'id', column: 'id', ascending: true },
    ];
    expect(keysetCondition(mixed, false, 1)).toBe('(("q"."at" < $1) OR ("q"."at" = $1 AND "q"."id" > $2))');
    expect(keysetCondition(mixed, true, 1)).toBe('(("q"."at" > $1) OR ("q"."at" = $1 AND "q"."id" < $2))');
  });
});

describe('keyset cursors', () => {
  it('round-trip as opaque URL-safe text', () => {
    const cursor = {
      direction: 'prev' as const,
      sort: [['at', false] as [string, boolean], ['id', true] as [string, boolean]],
      key: ['2026-01-01T00:00:00.000Z', 7],
      page: 3,
      search: 'abc',
    };
    const text = encodeKeysetCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeKeysetCursor(text)).toEqual(cursor);
  });

  it('refuse anything else with 400 Q727 on the cursor field', () => {
    for (const text of [
      '%%%',
      Buffer.from('[1,1,[["id",true]],[1,2],1,"x"]').toString('base64url'),
      Buffer.from('{"a":1}').toString('base64url'),
    ]) {
      let caught: unknown;
      try {
        decodeKeysetCursor(text);
      } catch (err) {
        caught = err;
      }
      expect(isFwError(caught) && caught.subErrorCode === 'Q727' && caught.field === 'cursor').toBe(true);
    }
  });
});

describe('in-memory provider, keyset paging', () => {
  const rows = [5, 3, 1, 4, 2].map((id) => ({ id, name: `n${id}` }));
  const provider = makeInMemoryQueryProvider({ datasets: { 'mem.items': rows } });
  const definition: QueryDefinition = {
    name: 'items',
    id: 'mem.items',
    paginated: true,
    acls: [],
    columnMetadata: {},
    keyset: { columns: ['id'] },
  };
  const request = (keyset: QueryExecutionRequest['keyset']): QueryExecutionRequest => ({
    definition,
    tenantId: 't1',
    parameters: {},
    filters: [],
    sort: [{ field: 'id', column: 'id', ascending: true }],
    page: { limit: 2, offset: 0 },
    mode: 'rows',
    keyset,
  });

  it('reads after the position, and before it in reverse order', async () => {
    expect((await provider.execute(request({ after: [2], backward: false }))).rows.map((r) => r.id)).toEqual([3, 4]);
    expect((await provider.execute(request({ after: [4], backward: true }))).rows.map((r) => r.id)).toEqual([3, 2]);
    expect((await provider.execute(request({ backward: false }))).rows.map((r) => r.id)).toEqual([1, 2]);
  });
});
