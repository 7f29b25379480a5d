// The README's example, verbatim apart from the folder: it must keep running.
import { createDatabase } from '@fw/core';
import * as path from 'node:path';
import { makeQueryService } from '../src';

const exampleDir = path.join(__dirname, 'fixtures', 'readme');

it('runs the README example', async () => {
  const database = createDatabase({ url: 'pglite:memory:' });
  await database.withSession((s) =>
    s.exec(`create table books (id int primary key, title text, price numeric);
            insert into books values (1, 'Dune', 9.99), (2, 'Dune Messiah', 8.5), (3, 'Solaris', 11.4)`),
  );
  const service = await makeQueryService({
    config: {
      defaultTenantId: 'demo',
      datasources: { demo: { jdbcUrl: 'pglite:memory:' } },
      mapperFiles: 'mappers/*.xml',
      definitionFiles: 'definitions/*.json',
    },
    baseDir: exampleDir,
    databaseFactory: () => database, // default: createDatabase, one pool per tenant
  });
  const page = await service.search(
    'books',
    { filters: { title: 'dune' }, sortCriteria: [{ name: 'price', ascendingOrder: false }] },
    {},
  );
  expect(page.list.map((r) => r.row)).toEqual([
    { id: 1, title: 'Dune', price: 9.99 },
    { id: 2, title: 'Dune Messiah', price: 8.5 },
  ]);
  expect(page.maxRows).toBe(2);
  await service.close();
});
