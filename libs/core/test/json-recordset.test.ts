import { sql } from 'kysely';
import { describeEachDatabase } from '@fw/test-support';
import { jsonRecordset } from '../src';

describeEachDatabase('jsonRecordset', (getDb) => {
  it('hands many rows over as one JSON parameter: types, JSON values, nulls and absent keys', async () => {
    const { database } = getDb();
    await sql`create table jr_probe (id uuid primary key, n integer, ok boolean, at timestamptz, label text, doc jsonb, seq bigint generated always as identity)`.execute(
      database.db,
    );
    const rows = [
      {
        id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        n: 1,
        ok: true,
        at: new Date('2026-11-25T03:00:00.123Z'),
        label: `quote " backslash \\ and 'single'`,
        doc: { a: [1, 'two', null], b: { c: 'd' } },
      },
      {
        id: '8d0e6679-7425-40de-944b-e07fc1f90ae8',
        n: 2,
        ok: false,
        at: '2026-11-25T04:00:00.000Z',
        label: null,
        doc: 'a JSON string',
      },
      { id: '9e1e6679-7425-40de-944b-e07fc1f90ae9', n: 3, ok: null, at: null, doc: null }, // label absent
    ];
    const { rows: inserted } = await sql<{ id: string }>`
      insert into jr_probe (id, n, ok, at, label, doc)
      select id, n, ok, at, label, doc from ${jsonRecordset(rows, { id: 'uuid', n: 'integer', ok: 'boolean', at: 'timestamptz', label: 'text', doc: 'jsonb' })}
      returning id`.execute(database.db);
    expect(inserted.map((r) => r.id)).toEqual(rows.map((r) => r.id)); // in the order given
    const { rows: stored } = await sql<
      Record<string, unknown>
    >`select id, n, ok, at, label, doc, doc is null as doc_null from jr_probe order by seq`.execute(database.db);
    expect(stored.map((r) => ({ ...r, at: r.at === null ? null : new Date(r.at as string).toISOString() }))).toEqual([
      {
        id: rows[0].id,
        n: 1,
        ok: true,
        at: '2026-11-25T03:00:00.123Z',
        label: rows[0].label,
        doc: rows[0].doc,
        doc_null: false,
      },
      {
        id: rows[1].id,
        n: 2,
        ok: false,
        at: '2026-11-25T04:00:00.000Z',
        label: null,
        doc: 'a JSON string',
        doc_null: false,
      },
      { id: rows[2].id, n: 3, ok: null, at: null, label: null, doc: null, doc_null: true }, // JSON null is SQL NULL
    ]);
  });

  it('writes the Dates of time columns as JSON would (shared, distinct, invalid) and leaves the given rows as they are', async () => {
    const { database } = getDb();
    await sql`create table jr_times (id integer primary key, at timestamptz, other timestamptz)`.execute(database.db);
    const shared = new Date('2026-11-27T10:00:00.001Z');
    const rows = [
      { id: 1, at: shared, other: shared },
      { id: 2, at: shared, other: new Date('2026-11-27T11:30:00.500Z') },
      { id: 3, at: new Date(Number.NaN), other: '2026-11-27T12:00:00.000Z' },
      { id: 4, at: null },
    ];
    await sql`insert into jr_times (id, at, other)
      select id, at, other from ${jsonRecordset(rows, { id: 'integer', at: 'timestamptz', other: 'timestamptz' })}`.execute(
      database.db,
    );
    const { rows: stored } = await sql<{
      id: number;
      at: Date | null;
      other: Date | null;
    }>`select id, at, other from jr_times order by id`.execute(database.db);
    const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());
    expect(stored.map((r) => [r.id, iso(r.at), iso(r.other)])).toEqual([
      [1, '2026-11-27T10:00:00.001Z', '2026-11-27T10:00:00.001Z'],
      [2, '2026-11-27T10:00:00.001Z', '2026-11-27T11:30:00.500Z'],
      [3, null, '2026-11-27T12:00:00.000Z'],
      [4, null, null],
    ]);
    expect(rows[0].at).toBe(shared);
    expect(rows[1].other).toBeInstanceOf(Date);
  });

  it('a value the column type refuses fails the statement; no row is written', async () => {
    const { database } = getDb();
    await sql`create table jr_refuse (id uuid primary key)`.execute(database.db);
    const insert = sql`insert into jr_refuse (id) select id from ${jsonRecordset([{ id: '7c9e6679-7425-40de-944b-e07fc1f90ae7' }, { id: 'x); drop table jr_refuse; --' }], { id: 'uuid' })}`;
    await expect(insert.execute(database.db)).rejects.toThrow(/uuid/);
    const { rows } = await sql<{ n: number }>`select count(*) as n from jr_refuse`.execute(database.db);
    expect(rows[0].n).toBe(0);
  });

  it('reads each column by its place in the row, ignores keys that are not columns, and gives text columns any JSON value as text', async () => {
    const { database } = getDb();
    // Typed as rows of the columns: extra keys come from objects built for other uses.
    const rows: Array<Partial<Record<'a' | 'b', unknown>>> = [
      { extra: 'ignored', b: 42, a: 'first' } as Partial<Record<'a' | 'b', unknown>>,
      { b: { nested: [1, 2] }, a: null, more: 1 } as Partial<Record<'a' | 'b', unknown>>,
      { b: 'plain' }, // a absent
    ];
    const { rows: read } = await sql<{
      a: string | null;
      b: string | null;
    }>`select given.a, given.b from ${jsonRecordset(rows, { a: 'text', b: 'text' }, 'given')}`.execute(database.db);
    // Sorted here: collations order '{' differently.
    expect([...read].sort((x, y) => ((x.b ?? '') < (y.b ?? '') ? -1 : 1))).toEqual([
      { a: 'first', b: '42' },
      { a: null, b: 'plain' },
      { a: null, b: '{"nested": [1, 2]}' },
    ]);
  });

  it('binds a value every row shares once, as a parameter of its own, and reads it back as the rows would', async () => {
    const { database } = getDb();
    await sql`create table jr_shared (id uuid primary key, parent uuid, n integer, big bigint, ok boolean, at timestamptz, label text, doc jsonb, note text, seq bigint generated always as identity)`.execute(
      database.db,
    );
    const parent = '5a9e6679-7425-40de-944b-e07fc1f90ae0';
    const at = '2026-11-28T22:00:00.250Z';
    const columns = {
      id: 'uuid',
      parent: 'uuid',
      n: 'integer',
      big: 'bigint',
      ok: 'boolean',
      at: 'timestamptz',
      label: 'text',
      doc: 'jsonb',
      note: 'text',
    } as const;
    // Every column but id is shared: as a value, as equal Dates, as absent and null, as a JSON string.
    const shared = { parent, n: 7, big: 9007199254740991, ok: false, label: 'it\'s "x"', doc: 'a JSON string' };
    const rows = [
      { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', ...shared, at: new Date(at), note: null },
      { id: '8d0e6679-7425-40de-944b-e07fc1f90ae8', ...shared, at: new Date(at) },
    ];
    const fragment = jsonRecordset(rows, columns);
    const { parameters } = sql`select * from ${fragment}`.compile(database.db);
    // The rows' JSON holds only the ids; each shared value is one parameter (the null none).
    expect(parameters).toEqual([
      parent,
      '7',
      '9007199254740991',
      'false',
      at,
      'it\'s "x"',
      '"a JSON string"',
      JSON.stringify([[rows[0].id], [rows[1].id]]),
    ]);
    await sql`insert into jr_shared (id, parent, n, big, ok, at, label, doc, note)
      select id, parent, n, big, ok, at, label, doc, note from ${fragment}`.execute(database.db);
    const { rows: stored } = await sql<Record<string, unknown>>`
      select id, parent, n, big::text as big, ok, to_json(at)#>>'{}' as at, label, doc, note, pg_typeof(note)::text as note_type
        from jr_shared order by seq`.execute(database.db);
    const expected = (id: string) => ({
      id,
      parent,
      n: 7,
      big: '9007199254740991',
      ok: false,
      at: expect.stringMatching(/^2026-11-28T22:00:00\.25/),
      label: 'it\'s "x"',
      doc: 'a JSON string',
      note: null,
      note_type: 'text',
    });
    expect(stored).toEqual([expected(rows[0].id), expected(rows[1].id)]);
  });

  it('keeps in the rows what is not shared or would read differently as a parameter, and a single row as it is', async () => {
    const { database } = getDb();
    const columns = { a: 'text', b: 'jsonb', c: 'text', d: 'timestamptz', e: 'text' } as const;
    const when = new Date('2026-11-28T22:00:00.000Z');
    const rows = [
      // a: differs; b: equal objects that are not one value; c: a number whose JSON text is not its
      // SQL text; d: an invalid Date (JSON null); e: a Date outside a time column (JSON's ISO text).
      { a: 'one', b: { k: 1 }, c: 1e21, d: new Date(Number.NaN), e: when },
      { a: 'two', b: { k: 1 }, c: 1e21, d: new Date(Number.NaN), e: when },
    ];
    const { parameters } = sql`select * from ${jsonRecordset(rows, columns)}`.compile(database.db);
    expect(parameters).toHaveLength(1);
    const { rows: read } = await sql<Record<string, unknown>>`
      select a, b, c, d, e from ${jsonRecordset(rows, columns)} order by a`.execute(database.db);
    expect(read).toEqual([
      { a: 'one', b: { k: 1 }, c: '1000000000000000000000', d: null, e: '2026-11-28T22:00:00.000Z' },
      { a: 'two', b: { k: 1 }, c: '1000000000000000000000', d: null, e: '2026-11-28T22:00:00.000Z' },
    ]);
    expect(sql`select * from ${jsonRecordset([{ a: 'only' }], { a: 'text' })}`.compile(database.db).parameters).toEqual(
      [JSON.stringify([['only']])],
    );
  });

  it('keeps the columns named in keepInRows in every row, so a join on them stays a join', async () => {
    const { database } = getDb();
    await sql`create table jr_kept (id uuid primary key, version integer not null, label text)`.execute(database.db);
    const ids = [
      '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      '8d0e6679-7425-40de-944b-e07fc1f90ae8',
      '9e1e6679-7425-40de-944b-e07fc1f90ae9',
    ];
    await sql`insert into jr_kept (id, version) select unnest(${ids}::uuid[]), 1`.execute(database.db);
    await sql`update jr_kept set version = 2 where id = ${ids[2]}::uuid`.execute(database.db);
    const rows = ids.map((id) => ({ id, expected: 1, label: 'saved' }));
    const fragment = jsonRecordset(rows, { id: 'uuid', expected: 'integer', label: 'text' }, 'v', {
      keepInRows: ['id', 'expected'],
    });
    // The label is shared; the id and the expected version travel in each row.
    expect(sql`select * from ${fragment}`.compile(database.db).parameters).toEqual([
      'saved',
      JSON.stringify(ids.map((id) => [id, 1])),
    ]);
    const { rows: saved } = await sql<{ id: string }>`
      update jr_kept as t set label = v.label, version = t.version + 1 from ${fragment}
       where t.id = v.id and t.version = v.expected returning t.id`.execute(database.db);
    // The third row's version moved on: it is not saved.
    expect(saved.map((r) => r.id).sort()).toEqual(ids.slice(0, 2));
  });

  it('refuses column names and types that are not plain identifiers or known types (they are spliced into the SQL)', () => {
    expect(() => jsonRecordset([], { 'id) as x; --': 'uuid' } as never)).toThrow(/not a plain identifier/);
    expect(() => jsonRecordset([], { id: 'uuid); drop table x; --' } as never)).toThrow(/unsupported type/);
    expect(() => jsonRecordset([], { id: 'uuid' }, 'v; --')).toThrow(/not a plain identifier/);
  });
});
