// The old jdbcType shorthand #{property:TYPE} (test/fixtures/jdbc-type-shorthand): with a type it
// binds the property; with nothing after ':' the mapper is refused when it loads, naming the file,
// the statement (and, in the mapper check, its line), as MyBatis refuses it.
import { ConfigError } from '@fw/core';
import { describeEachDatabase } from '@fw/test-support';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { makeQueryService } from '../../src';
import { reportLines } from '../../src/check/check-report';
import { checkMapperFiles } from '../../src/check/mapper-check';
import { parseMapperXml } from '../../src/mapper/mapper-parser';
import { fixedDatabaseFactory } from '../support/library-fixture';

const FIXTURES = path.join(__dirname, '../fixtures/jdbc-type-shorthand');
const ORDERS = path.join(FIXTURES, 'orders.xml');
const TENANT_URL = 'postgres://db-host/shop';

const NO_TYPE =
  "has an invalid parameter #{id:}: the ':' at position 3 is not followed by a jdbcType; write #{id} or name the type (#{id:VARCHAR})";
const BLANK_TYPE =
  "has an invalid parameter #{id: ,javaType=int}: the ':' at position 3 is not followed by a jdbcType; write #{id} or name the type (#{id:VARCHAR})";
const IN_FRAGMENT =
  "has an invalid parameter #{customerId:}: the ':' at position 11 is not followed by a jdbcType; write #{customerId} or name the type (#{customerId:VARCHAR})";

async function loadError(load: Promise<unknown>): Promise<ConfigError> {
  try {
    await load;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected the mapper to be refused');
}

describe('#{property:} without a jdbcType', () => {
  it('refuses the mapper at load with every such parameter, naming file and statement', async () => {
    const error = await loadError(parseMapperXml(await readFile(ORDERS, 'utf8'), 'jdbc-type-shorthand/orders.xml'));
    expect(error.message).toBe(
      [
        '3 problems in mapper jdbc-type-shorthand/orders.xml:',
        `- jdbc-type-shorthand/orders.xml: select 'byIdNoType' ${NO_TYPE}`,
        `- jdbc-type-shorthand/orders.xml: select 'byIdBlankTypeThenOptions' ${BLANK_TYPE}`,
        `- jdbc-type-shorthand/orders.xml: sql 'byCustomer' (included by select 'byCustomer') ${IN_FRAGMENT}`,
      ].join('\n'),
    );
  });

  it('reports each statement with its line in the mapper check; the typed forms load', async () => {
    const report = await checkMapperFiles([[ORDERS, 'orders.xml']]);
    expect(reportLines(report)).toEqual([
      'orders.xml:7: select legacy.OrderMapper.byIdTyped: loads',
      'orders.xml:8: select legacy.OrderMapper.byIdTypedWithOptions: loads',
      `orders.xml:10: select legacy.OrderMapper.byIdNoType: invalid: ${NO_TYPE}`,
      `orders.xml:14: select legacy.OrderMapper.byIdBlankTypeThenOptions: invalid: ${BLANK_TYPE}`,
      `orders.xml:15: select legacy.OrderMapper.byCustomer: invalid: sql 'byCustomer' (included by select 'byCustomer') ${IN_FRAGMENT}`,
    ]);
  });

  it('keeps the query service from starting', async () => {
    const error = await loadError(
      makeQueryService({
        config: {
          defaultTenantId: 'shop',
          datasources: { shop: { jdbcUrl: TENANT_URL } },
          mapperFiles: 'orders.xml',
          definitionFiles: 'definitions.json',
        },
        baseDir: FIXTURES,
        databaseFactory: () => {
          throw new Error('no database is opened for a mapper that does not load');
        },
      }),
    );
    expect(error.message).toContain(`orders.xml: select 'byIdNoType' ${NO_TYPE}`);
  });
});

describeEachDatabase('#{property:TYPE} on a database', (getDb) => {
  it('binds the property and ignores the type', async () => {
    const { database } = getDb();
    await database.withSession(async (s) =>
      s.exec(await readFile(path.join(__dirname, '../fixtures/left-join/schema.sql'), 'utf8')),
    );
    const service = await makeQueryService({
      config: {
        defaultTenantId: 'shop',
        datasources: { shop: { jdbcUrl: TENANT_URL } },
        mapperFiles: 'typed.xml',
        definitionFiles: 'definitions.json',
      },
      baseDir: FIXTURES,
      databaseFactory: fixedDatabaseFactory({ [TENANT_URL]: database }).factory,
    });
    try {
      const page = await service.search('orderById', { filters: { id: 11 } }, {});
      expect(page.list.map((entry) => entry.row)).toEqual([{ id: 11, note: null }]);
    } finally {
      await service.close();
    }
  });
});
