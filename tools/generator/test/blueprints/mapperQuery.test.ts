/**
 * mapperQuery: each prompt's effect on the generated query module, and the sample (and the
 * secured variant) type-checked against the workspace's packages.
 */
import * as path from 'node:path';
import { removeTempDirs } from '../support';
import { generate, typeCheckProject } from './support';

afterAll(removeTempDirs);

const SECURITY_FILES = ['src/bearer-auth.ts', 'test/security.test.ts'];

describe('mapperQuery', () => {
  it('the sample (defaults) generates the mapper, the definition, the seed migration and the tests, and type-checks', async () => {
    const g = await generate('mapperQuery');
    expect(g.run).toMatchObject({ code: 0, err: [] });
    expect(path.basename(g.project)).toBe('catalog');
    expect(g.files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'query/mappers/catalog.xml',
        'query/definitions/catalog.json',
        'migrations/catalog-0001-items.sql',
        'src/query-module.ts',
        'src/app.ts',
        'src/main.ts',
        'test/query.test.ts',
        'test/main.test.ts',
      ]),
    );
    const [definition] = JSON.parse(g.read('query/definitions/catalog.json'));
    expect(definition).toMatchObject({
      name: 'catalog-items',
      id: 'catalog.findItems',
      paginated: true,
      columnMetadata: { name: { likeQuery: true, filterable: true }, price: { betweenQuery: true } },
    });
    expect(g.read('query/mappers/catalog.xml')).toContain('<mapper namespace="catalog">');
    expect(g.read('query/mappers/catalog.xml')).toContain('${orderby} ${pagination}');
    expect(g.read('migrations/catalog-0001-items.sql')).toContain('create table CATALOG_ITEM');
    expect(g.read('test/query.test.ts')).toContain("'Q725'");
    typeCheckProject(g.project, ['src/**/*.ts', 'test/**/*.ts']);
  }, 120_000);

  it('namespace names the mapper namespace, the query, the table, the migration and the package', async () => {
    const g = await generate('mapperQuery', { namespace: 'bookShelf', destFolder: 'bs' });
    expect(g.files).toEqual(
      expect.arrayContaining([
        'query/mappers/bookShelf.xml',
        'query/definitions/bookShelf.json',
        'migrations/book-shelf-0001-items.sql',
      ]),
    );
    expect(g.read('query/mappers/bookShelf.xml')).toContain('<mapper namespace="bookShelf">');
    expect(g.read('query/mappers/bookShelf.xml')).toContain('from BOOK_SHELF_ITEM');
    expect(JSON.parse(g.read('query/definitions/bookShelf.json'))[0]).toMatchObject({
      name: 'book-shelf-items',
      id: 'bookShelf.findItems',
    });
    expect(g.read('src/query-module.ts')).toContain("QUERY_NAME = 'book-shelf-items'");
    expect(JSON.parse(g.read('package.json')).name).toBe('@example/book-shelf-query');
  });

  it('namespaceVersion is the package version', async () => {
    const g = await generate('mapperQuery', { namespaceVersion: '3.0.1' });
    expect(JSON.parse(g.read('package.json')).version).toBe('3.0.1');
    expect(g.read('README.md')).toContain('| namespaceVersion | `3.0.1` |');
  });

  it('destFolder is where the project goes', async () => {
    const g = await generate('mapperQuery', { destFolder: 'queries/catalog' });
    expect(g.project).toBe(path.join(g.dir, 'queries/catalog'));
    expect(g.files).toContain('query/mappers/catalog.xml');
  });

  it('security = no: open routes, no jose, no bearer code', async () => {
    const g = await generate('mapperQuery', { security: false });
    for (const file of SECURITY_FILES) expect(g.files).not.toContain(file);
    expect(JSON.parse(g.read('package.json')).dependencies).not.toHaveProperty('jose');
    for (const file of g.files.filter((f) => f.endsWith('.ts')))
      expect(g.read(file)).not.toMatch(/jose|Bearer|QUERY_JWT_SECRET/);
  });

  it('security = yes: a bearer JWT (jose) guards /q, with signed and rejected token tests, and type-checks', async () => {
    const g = await generate('mapperQuery', { security: true });
    expect(g.run.code).toBe(0);
    expect(g.files).toEqual(expect.arrayContaining(SECURITY_FILES));
    expect(JSON.parse(g.read('package.json')).dependencies).toHaveProperty('jose');
    expect(g.read('src/app.ts')).toContain("app.use('/q', makeBearerAuth(options.auth))");
    expect(g.read('src/main.ts')).toContain('QUERY_JWT_SECRET is not set');
    expect(g.read('test/security.test.ts')).toContain('a token signed with another secret');
    expect(g.read('test/support.ts')).toContain('new SignJWT(');
    typeCheckProject(g.project, ['src/**/*.ts', 'test/**/*.ts']);
  }, 120_000);
});
