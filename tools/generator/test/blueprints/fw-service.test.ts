/**
 * fw-service: each prompt's effect on the generated project (files present or absent, content),
 * and the sample, every option on, and the in-memory variant type-checked against the workspace's
 * packages. The generated projects' own `npm install && npm test` run in tools/pack-check.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { removeTempDirs } from '../support';
import { generate, ROOT, type Generated } from './support';

afterAll(removeTempDirs);

const API = 'inventory-api';
const SVC = 'inventory-service';
const DATABASE_FILES = [
  `${SVC}/src/database-repository.ts`,
  `${SVC}/src/migrations.ts`,
  `${SVC}/test/database-repository.test.ts`,
];
const SECURITY_FILES = [`${SVC}/src/security.ts`, `${SVC}/test/security.test.ts`];
const CLIENT_FILES = [`${SVC}/src/client.ts`, `${SVC}/test/client.test.ts`];
const MCP_FILES = [`${SVC}/test/mcp.test.ts`];

/**
 * `tsc --noEmit` over both workspaces: @fw/* mapped to the libraries' sources, the project's own
 * packages to their sources, third-party modules (express, jose, the MCP SDK) to the
 * root's node_modules — with the project's own compiler options (module node20: jose is ESM-only).
 */
function typeCheckWorkspaces(g: Generated, scope: string, packages: string[]): void {
  const modules = path.join(ROOT, 'node_modules');
  const paths: Record<string, string[]> = {
    '@fw/service/mcp': [path.join(ROOT, 'libs/service/src/mcp.ts')],
    '@fw/*': [path.join(ROOT, 'libs/*/src/index.ts')],
    express: [path.join(modules, '@types/express/index.d.ts')],
    jose: [path.join(modules, 'jose/dist/types/index.d.ts')],
    '@modelcontextprotocol/sdk/*': [path.join(modules, '@modelcontextprotocol/sdk/dist/cjs/*')],
  };
  for (const p of packages) paths[`${scope}/${p}`] = [path.join(g.project, p, 'src/index.ts')];
  const file = path.join(g.project, 'tsconfig.check.json');
  writeFileSync(
    file,
    JSON.stringify({
      extends: './tsconfig.base.json',
      compilerOptions: {
        noEmit: true,
        baseUrl: ROOT,
        paths,
        typeRoots: [path.join(modules, '@types')],
        types: ['node'],
      },
      include: packages.flatMap((p) => [`${p}/src/**/*.ts`, `${p}/test/**/*.ts`]),
    }),
  );
  try {
    execFileSync(process.execPath, [path.join(modules, 'typescript/bin/tsc'), '-p', file], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (err) {
    throw new Error(`tsc failed:\n${(err as { stdout?: string }).stdout ?? ''}`, { cause: err });
  }
}

function packageJson(
  g: Generated,
  pkg: string,
): { name: string; version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> } {
  return JSON.parse(g.read(`${pkg}/package.json`));
}

describe('fw-service', () => {
  it('the sample (defaults: jpa on, the rest off) generates the api and service workspaces, and type-checks', async () => {
    const g = await generate('fw-service');
    expect(g.run).toMatchObject({ code: 0, err: [] });
    expect(path.basename(g.project)).toBe('inventory');
    expect(g.files).toEqual(
      expect.arrayContaining([
        '.fw-gen.json',
        '.gitignore',
        'README.md',
        'package.json',
        'tsconfig.base.json',
        `${API}/src/index.ts`,
        `${API}/test/contract.test.ts`,
        `${SVC}/README.md`,
        `${SVC}/src/index.ts`,
        `${SVC}/src/service.ts`,
        `${SVC}/src/host.ts`,
        `${SVC}/src/main.ts`,
        `${SVC}/src/settings.ts`,
        `${SVC}/src/repository.ts`,
        `${SVC}/src/memory-repository.ts`,
        `${SVC}/test/service.test.ts`,
        `${SVC}/test/support.ts`,
        ...DATABASE_FILES,
      ]),
    );
    for (const absent of [...SECURITY_FILES, ...CLIENT_FILES, ...MCP_FILES]) expect(g.files).not.toContain(absent);
    expect(JSON.parse(g.read('package.json'))).toMatchObject({
      name: '@example/inventory',
      workspaces: [API, SVC],
      scripts: { test: 'npm run build --workspaces && npm test --workspaces' },
    });
    const service = g.read(`${SVC}/src/service.ts`);
    expect(service).toContain("kind: 'http'");
    expect(service).toContain("method: 'POST',\n        path: '/inventory',");
    expect(service).toContain("method: 'GET',\n        path: '/inventory/{id}',");
    expect(service).toContain("method: 'POST',\n        path: '/inventory/op1',");
    // The composition entry points a mini-monolith uses.
    expect(g.read(`${SVC}/src/index.ts`)).toContain(
      'export { createInventoryServices, makeInventoryApp, registerInventoryServices, startInventoryHost }',
    );
    expect(g.read(`${SVC}/src/host.ts`)).toContain(
      'app.use(makeServiceRouter(registry, { infoAccessKey: options.infoAccessKey }))',
    );
    typeCheckWorkspaces(g, '@example', [API, SVC]);
  }, 180_000);

  it('service names the route, the packages, the types and the environment variables', async () => {
    const g = await generate('fw-service', { service: 'StockItems', destFolder: 'stock' });
    expect(g.files).toEqual(
      expect.arrayContaining(['stock-items-api/src/index.ts', 'stock-items-service/src/service.ts']),
    );
    expect(packageJson(g, 'stock-items-service').name).toBe('@example/stock-items-service');
    expect(packageJson(g, 'stock-items-service').dependencies).toHaveProperty('@example/stock-items-api');
    expect(g.read('stock-items-api/src/index.ts')).toContain("SERVICE_NAME = 'stock-items'");
    expect(g.read('stock-items-api/src/index.ts')).toContain('export interface StockItemsEntity');
    expect(g.read('stock-items-service/src/service.ts')).toContain("path: '/stock-items/{id}'");
    expect(g.read('stock-items-service/src/settings.ts')).toContain("value(env, 'STOCK_ITEMS_DATABASE_URL')");
    expect(g.read('README.md')).toMatch(/^# StockItems 0\.1\.0$/m);
  });

  it("serviceVersion is the packages' version and the service's version", async () => {
    const g = await generate('fw-service', { serviceVersion: '2.3.4' });
    expect(packageJson(g, API).version).toBe('2.3.4');
    expect(packageJson(g, SVC).version).toBe('2.3.4');
    expect(packageJson(g, SVC).dependencies[`@example/${API}`]).toBe('2.3.4');
    expect(g.read(`${API}/src/index.ts`)).toContain("SERVICE_VERSION = '2.3.4'");
    expect(g.read(`${SVC}/test/service.test.ts`)).toContain("version: '2.3.4', kind: 'http'");
  });

  it('destFolder is where the project goes', async () => {
    const g = await generate('fw-service', { destFolder: 'services/http/inventory' });
    expect(g.project).toBe(path.join(g.dir, 'services/http/inventory'));
    expect(g.files).toContain(`${SVC}/src/service.ts`);
  });

  it('security = yes: a jose bearer-JWT interceptor on every operation, with its tests', async () => {
    const g = await generate('fw-service', { security: true });
    expect(g.files).toEqual(expect.arrayContaining(SECURITY_FILES));
    expect(packageJson(g, SVC).dependencies).toHaveProperty('jose', '^6.1.0');
    expect(g.read(`${SVC}/src/security.ts`)).toContain("from 'jose'");
    expect(g.read(`${SVC}/src/host.ts`)).toContain('interceptors: [security]');
    expect(g.read(`${SVC}/src/settings.ts`)).toContain("'INVENTORY_JWT_SECRET'");
    expect(g.read(`${SVC}/src/settings.ts`)).toContain("'INVENTORY_JWKS_URL'");
    const tests = g.read(`${SVC}/test/security.test.ts`);
    for (const refusal of ['no Authorization header', 'a bad signature', 'an expired token'])
      expect(tests).toContain(refusal);
    expect(g.read(`${SVC}/test/support.ts`)).toContain('authorization: `Bearer ${await token()}`');
    expect(g.read('README.md')).toContain('`INVENTORY_JWT_SECRET`');
  });

  it('security = no (default): no jose, no authorization anywhere', async () => {
    const g = await generate('fw-service', { security: false });
    expect(packageJson(g, SVC).dependencies).not.toHaveProperty('jose');
    for (const file of g.files.filter((f) => f.startsWith(`${SVC}/`) && f.endsWith('.ts')))
      expect(g.read(file)).not.toMatch(/jose|authorization/i);
  });

  it('jpa = yes (default): kysely store with a migration, PGlite by default, PostgreSQL by URL', async () => {
    const g = await generate('fw-service', { jpa: true });
    expect(g.files).toEqual(expect.arrayContaining(DATABASE_FILES));
    expect(packageJson(g, SVC).dependencies).toHaveProperty('@electric-sql/pglite');
    expect(g.read(`${SVC}/src/migrations.ts`)).toContain('create table if not exists "inventory"');
    expect(g.read(`${SVC}/src/host.ts`)).toContain('await openInventoryDatabaseRepository(settings.database)');
    expect(g.read(`${SVC}/src/settings.ts`)).toContain("?? 'pglite:./.data/inventory'");
    expect(g.read(`${SVC}/test/database-repository.test.ts`)).toContain('process.env.FW_TEST_DATABASE_URL');
  });

  it('jpa = no: the in-memory store only — no database files, no PGlite — and type-checks with security on', async () => {
    const g = await generate('fw-service', { jpa: false, security: true });
    expect(g.run.code).toBe(0);
    for (const absent of DATABASE_FILES) expect(g.files).not.toContain(absent);
    expect(packageJson(g, SVC).dependencies).not.toHaveProperty('@electric-sql/pglite');
    expect(g.read(`${SVC}/src/host.ts`)).toContain('options.repository ?? makeMemoryInventoryRepository()');
    expect(g.read(`${SVC}/src/settings.ts`)).not.toContain('DATABASE_URL');
    expect(g.read('README.md')).toContain('records live in memory');
    typeCheckWorkspaces(g, '@example', [API, SVC]);
  }, 180_000);

  it('cloudSwitchEnabled = yes: a typed client on makeServiceProxy, services.<name>.url from a config file, tested local and remote', async () => {
    const g = await generate('fw-service', { cloudSwitchEnabled: true });
    expect(g.files).toEqual(expect.arrayContaining(CLIENT_FILES));
    expect(g.read(`${SVC}/src/client.ts`)).toContain(
      'makeServiceProxy({ registry: options.registry, services: options.services',
    );
    expect(g.read(`${SVC}/src/settings.ts`)).toContain("value(env, 'INVENTORY_CONFIG')");
    expect(g.read(`${SVC}/src/index.ts`)).toContain('export { makeInventoryClient }');
    expect(g.read(`${SVC}/test/client.test.ts`)).toContain("services: { 'inventory': { url: remote.url } }");
    expect(g.read('README.md')).toContain('"url": "${INVENTORY_REMOTE_URL:-}"');
  });

  it('cloudSwitchEnabled = no (default): no client, no config file', async () => {
    const g = await generate('fw-service', { cloudSwitchEnabled: false });
    for (const absent of CLIENT_FILES) expect(g.files).not.toContain(absent);
    expect(g.read(`${SVC}/src/settings.ts`)).not.toContain('services');
  });

  it('enableMCP = yes: /mcp from @fw/service/mcp, the SDK as a dependency, a test with the SDK client', async () => {
    const g = await generate('fw-service', { enableMCP: true });
    expect(g.files).toEqual(expect.arrayContaining(MCP_FILES));
    expect(packageJson(g, SVC).dependencies).toHaveProperty('@modelcontextprotocol/sdk');
    expect(g.read(`${SVC}/src/host.ts`)).toContain("import { makeMcpRouter } from '@fw/service/mcp';");
    expect(g.read(`${SVC}/test/mcp.test.ts`)).toContain('client.listTools()');
    expect(g.read('README.md')).toContain('| POST | `/mcp` |');
  });

  it('enableMCP = no (default): no /mcp and no SDK', async () => {
    const g = await generate('fw-service', { enableMCP: false });
    for (const absent of MCP_FILES) expect(g.files).not.toContain(absent);
    expect(packageJson(g, SVC).dependencies).not.toHaveProperty('@modelcontextprotocol/sdk');
    expect(g.read(`${SVC}/src/host.ts`)).not.toContain('mcp');
  });

  it('every option on generates valid package files and type-checks', async () => {
    const g = await generate('fw-service', { security: true, jpa: true, cloudSwitchEnabled: true, enableMCP: true });
    expect(g.run).toMatchObject({ code: 0, err: [] });
    expect(g.files).toEqual(
      expect.arrayContaining([...DATABASE_FILES, ...SECURITY_FILES, ...CLIENT_FILES, ...MCP_FILES]),
    );
    expect(Object.keys(packageJson(g, SVC).dependencies).sort()).toEqual(
      [
        '@electric-sql/pglite',
        `@example/${API}`,
        '@fw/core',
        '@fw/service',
        '@modelcontextprotocol/sdk',
        'express',
        'jose',
      ].sort(),
    );
    expect(g.read(`${SVC}/test/service.test.ts`)).toContain("['audit', 'bearer-jwt']");
    typeCheckWorkspaces(g, '@example', [API, SVC]);
  }, 180_000);
});
