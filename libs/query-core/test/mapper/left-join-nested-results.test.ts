// Nested results fed by LEFT JOINs (test/fixtures/left-join), executed on PGlite and PostgreSQL:
// a parent without children gets an empty list (or a null association), at every nesting level,
// as MyBatis does: a nested object is created only when a column mapped to one of its properties
// is non-null (or one of its own nested objects exists), and `notNullColumn` gates it first.
import { describeEachDatabase } from '@fw/test-support';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parseMapperXml } from '../../src/mapper/mapper-parser';
import { MapperRegistry } from '../../src/mapper/mapper-registry';
import { makeSqlQueryProvider } from '../../src/provider/sql-query-provider';
import { parseDefinitionObject } from '../../src/definition/query-definition-parser';

const FIXTURES = path.join(__dirname, '../fixtures/left-join');
const NAMESPACE = 'shop.CustomerMapper';

/** What every variant of the customer → orders → lines tree returns: Bob has no order, order 11 no line. */
const CUSTOMER_TREE = [
  {
    id: 1,
    name: 'Ada',
    orders: [
      {
        id: 10,
        note: 'gift',
        lines: [
          { id: 100, product: 'pen', note: null },
          { id: 101, product: 'ink', note: 'blue' },
        ],
      },
      { id: 11, note: null, lines: [] },
    ],
  },
  { id: 2, name: 'Bob', orders: [] },
  { id: 3, name: 'Cy', orders: [{ id: 12, note: 'rush', lines: [{ id: 102, product: 'pad', note: null }] }] },
];

describeEachDatabase('nested results over LEFT JOINs', (getDb) => {
  let registry: MapperRegistry;

  beforeAll(async () => {
    await getDb().database.withSession(async (s) => s.exec(await readFile(path.join(FIXTURES, 'schema.sql'), 'utf8')));
    registry = new MapperRegistry();
    registry.add(await parseMapperXml(await readFile(path.join(FIXTURES, 'shop.xml'), 'utf8'), 'left-join/shop.xml'));
    registry.link();
  });

  async function joinRows(statementId: string): Promise<Record<string, unknown>[]> {
    const statement = registry.getStatement(`${NAMESPACE}.${statementId}`);
    if (!statement) throw new Error(`statement ${statementId} is not loaded`);
    const bound = statement.render({});
    return getDb().database.withSession((session) => session.query<Record<string, unknown>>(bound.sql, bound.values));
  }

  async function rows(statementId: string): Promise<Record<string, unknown>[]> {
    const statement = registry.getStatement(`${NAMESPACE}.${statementId}`);
    if (!statement) throw new Error(`statement ${statementId} is not loaded`);
    return statement.mapRows(await joinRows(statementId));
  }

  it('gives a parent without children an empty list, at the first and the second level', async () => {
    // The children's id columns without property (the parent key repeated) are not null in these
    // rows; they identify a child but do not make one.
    const joined = await joinRows('customerTree');
    expect(joined.filter((row) => row.line_id === null).map((row) => [row.id, row.order_id])).toEqual([
      [1, 11],
      [2, null],
    ]);
    expect(await rows('customerTree')).toEqual(CUSTOMER_TREE);
  });

  it('does the same through columnPrefix, prefixes adding up from level to level', async () => {
    expect(await rows('customerTreePrefixed')).toEqual(CUSTOMER_TREE);
  });

  it('lets notNullColumn decide when a child carries a non-null value of its parent', async () => {
    expect(await rows('customerTreeNotNull')).toEqual([
      {
        id: 1,
        name: 'Ada',
        orders: [
          {
            id: 10,
            customerName: 'Ada',
            lines: [
              { id: 100, orderId: 10 },
              { id: 101, orderId: 10 },
            ],
          },
          { id: 11, customerName: 'Ada', lines: [] },
        ],
      },
      { id: 2, name: 'Bob', orders: [] },
      { id: 3, name: 'Cy', orders: [{ id: 12, customerName: 'Cy', lines: [{ id: 102, orderId: 12 }] }] },
    ]);
  });

  it('creates, without notNullColumn, a child whose mapped property holds a value (as MyBatis)', async () => {
    const customers = await rows('customerTreeWithoutNotNull');
    expect(customers.find((customer) => customer.name === 'Bob')).toEqual({
      id: 2,
      name: 'Bob',
      orders: [{ id: null, customerName: 'Bob', lines: [] }],
    });
    expect(customers.find((customer) => customer.name === 'Ada')?.orders).toEqual([
      {
        id: 10,
        customerName: 'Ada',
        lines: [
          { id: 100, orderId: 10 },
          { id: 101, orderId: 10 },
        ],
      },
      { id: 11, customerName: 'Ada', lines: [{ id: null, orderId: 11 }] },
    ]);
  });

  it('applies columnPrefix to notNullColumn', async () => {
    expect(await rows('customerOrdersPrefixedNotNull')).toEqual([
      {
        id: 1,
        orders: [
          { id: 10, customerName: 'Ada' },
          { id: 11, customerName: 'Ada' },
        ],
      },
      { id: 2, orders: [] },
      { id: 3, orders: [{ id: 12, customerName: 'Cy' }] },
    ]);
  });

  it('makes an association whose columns are all null null, at the first and the second level', async () => {
    expect(await rows('customerWithAddress')).toEqual([
      {
        id: 1,
        name: 'Ada',
        address: { city: 'Paris', street: 'Rue Oberkampf' },
        orders: [
          { id: 10, courier: { id: 7, name: 'Speedy' } },
          { id: 11, courier: null },
        ],
      },
      { id: 2, name: 'Bob', address: null, orders: [] },
      { id: 3, name: 'Cy', address: { city: 'Lyon', street: null }, orders: [{ id: 12, courier: null }] },
    ]);
  });

  it('answers the same through the SQL provider', async () => {
    const provider = makeSqlQueryProvider({ statements: registry, databaseFor: () => getDb().database });
    const definition = parseDefinitionObject(
      JSON.stringify({ name: 'customers', id: `${NAMESPACE}.customerTree`, paginated: false }),
      'test',
    );
    const result = await provider.execute({
      definition,
      tenantId: 't1',
      parameters: {},
      filters: [],
      sort: [],
      mode: 'rows',
    });
    expect(result.rows).toEqual(CUSTOMER_TREE);
  });
});
