import { isConfigError } from '@fw/core';
import { makeQueryDefinitionStore, parseDefinitionFile, parseDefinitionObject, type QueryDefinition } from '../src';

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isConfigError(err)) return err.message;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('parseDefinitionFile', () => {
  it('fills defaults: flags false, name from the key, acls [], paginated false', () => {
    const [def] = parseDefinitionFile(
      JSON.stringify([{ name: 'q', id: 'ns.q', columnMetadata: { price: { columnType: 'Number', sortable: true } } }]),
      'q.json',
    );
    expect(def).toEqual({
      name: 'q',
      id: 'ns.q',
      paginated: false,
      acls: [],
      columnMetadata: {
        price: {
          name: 'price',
          columnType: 'Number',
          filterable: false,
          likeQuery: false,
          containsQuery: false,
          betweenQuery: false,
          sortable: true,
        },
      },
    });
  });

  it('rejects unknown properties, wrong types and invalid JSON naming the file', () => {
    expect(message(() => parseDefinitionFile('[{"name":"q","id":"a.b","colour":1}]', 'defs/q.json'))).toBe(
      'defs/q.json: [0].colour is not a known property',
    );
    expect(
      message(() =>
        parseDefinitionFile('[{"name":"q","id":"a.b","columnMetadata":{"p":{"sortable":"yes"}}}]', 'defs/q.json'),
      ),
    ).toBe('defs/q.json: [0].columnMetadata.p.sortable must be a boolean');
    expect(
      message(() =>
        parseDefinitionFile('[{"name":"q","id":"a.b","columnMetadata":{"p":{"columnType":"Money"}}}]', 'defs/q.json'),
      ),
    ).toContain('[0].columnMetadata.p.columnType must be one of "Text", "Number", "Date", "Boolean"');
    expect(message(() => parseDefinitionFile('{"name":"q"}', 'defs/q.json'))).toBe(
      'defs/q.json: the value must be an array',
    );
    expect(message(() => parseDefinitionFile('[{', 'defs/q.json'))).toMatch(/^defs\/q.json: invalid JSON/);
    expect(message(() => parseDefinitionFile('[{"id":"a.b"}]', 'defs/q.json'))).toBe(
      'defs/q.json: [0].name is required',
    );
  });

  it('refuses unsafe column names, field names and a name differing from its key', () => {
    const withColumn = (columnName: string) =>
      JSON.stringify([{ name: 'q', id: 'a.b', columnMetadata: { p: { columnName, sortable: true } } }]);
    expect(message(() => parseDefinitionFile(withColumn('price; drop table books'), 'q.json'))).toContain(
      '[0].columnMetadata.p.columnName must match',
    );
    expect(message(() => parseDefinitionFile(withColumn('"price"'), 'q.json'))).toContain('columnName must match');
    expect(parseDefinitionFile(withColumn('b.price_eur'), 'q.json')[0].columnMetadata.p.columnName).toBe('b.price_eur');
    expect(
      message(() => parseDefinitionFile('[{"name":"q","id":"a.b","columnMetadata":{"bad key":{}}}]', 'q.json')),
    ).toContain('[0].columnMetadata.bad key must match');
    expect(
      message(() => parseDefinitionFile('[{"name":"q","id":"a.b","columnMetadata":{"p":{"name":"x"}}}]', 'q.json')),
    ).toBe("q.json: [0]: columnMetadata.p.name is 'x' but must equal its key 'p'");
  });

  it('parses one object for catalog rows', () => {
    expect(parseDefinitionObject('{"name":"q","id":"a.b","tenantId":"t1"}', 'row').tenantId).toBe('t1');
    expect(message(() => parseDefinitionObject('[]', 'row'))).toBe('row: the value must be an object');
  });
});

describe('makeQueryDefinitionStore', () => {
  const def = (name: string, tenantId?: string): QueryDefinition => ({
    name,
    id: `ns.${name}${tenantId ?? ''}`,
    paginated: false,
    acls: [],
    columnMetadata: {},
    ...(tenantId ? { tenantId } : {}),
  });

  it('prefers the tenant override, else the base definition', () => {
    const store = makeQueryDefinitionStore([
      { definition: def('books'), source: 'a' },
      { definition: def('books', 't1'), source: 'b' },
      { definition: def('special', 't1'), source: 'c' },
    ]);
    expect(store.lookup('books', 't1')?.id).toBe('ns.bookst1');
    expect(store.lookup('books', 't2')?.id).toBe('ns.books');
    expect(store.lookup('special', 't2')).toBeUndefined();
    expect(store.listFor('t1').map((d) => d.id)).toEqual(['ns.bookst1', 'ns.specialt1']);
    expect(store.listFor('t2').map((d) => d.id)).toEqual(['ns.books']);
    expect(store.all()).toHaveLength(3);
  });

  it('refuses two definitions of one name in one scope', () => {
    expect(
      message(() =>
        makeQueryDefinitionStore([
          { definition: def('x', 't1'), source: 'a.json' },
          { definition: def('x', 't1'), source: 'b.json' },
        ]),
      ),
    ).toBe("Query definition 'x' is defined twice in the tenant 't1': a.json and b.json");
  });
});
