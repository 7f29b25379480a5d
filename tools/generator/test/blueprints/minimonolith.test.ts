/**
 * minimonolith: each prompt's effect on the generated host, and the sample (and every option on)
 * type-checked against the workspace's packages. The generated project's own `npm test` (a real
 * host on port 0 checking each enabled piece over HTTP) runs in tools/pack-check.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { removeTempDirs } from '../support';
import { generate, ROOT, typeCheckProject, type Generated } from './support';

afterAll(removeTempDirs);

const ALL_ON = {
  jpa: true,
  cloudSwitchEnabled: true,
  security: true,
  enableMCP: true,
  mcpServerName: 'shop-tools',
  mcpInstructions: 'Use "notes" for notes',
  enableServiceRegistry: true,
  enableServiceRegistryDelegate: true,
  serviceRegistryUrl: 'http://registry.internal:8080',
  enableQueryController: true,
  enableDbConsole: true,
};
const ALL_OFF = Object.fromEntries(
  Object.entries(ALL_ON)
    .filter(([, v]) => typeof v === 'boolean')
    .map(([k]) => [k, false]),
);

/** The MCP SDK is not mapped by the shared helper: link the workspace's copy into the project. */
function linkMcpSdk(project: string): void {
  const target = path.join(project, 'node_modules/@modelcontextprotocol');
  if (existsSync(target)) return;
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules/@modelcontextprotocol'), target);
}

/** What npm workspaces would link: `node_modules/<name>` of the project resolving to a package's sources. */
function linkPackageSources(project: string, name: string, packageDir: string): void {
  const dir = path.join(project, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, types: 'index.d.ts' }));
  writeFileSync(path.join(dir, 'index.d.ts'), `export * from '${path.join(packageDir, 'src/index')}';\n`);
}

let off: Generated;
let on: Generated;
beforeAll(async () => {
  off = await generate('minimonolith', { ...ALL_OFF, destFolder: 'off' });
  on = await generate('minimonolith', { ...ALL_ON, destFolder: 'on' });
});

describe('minimonolith prompts', () => {
  it('monolith, monolithVersion, destFolder: package name, version, folder, host name', async () => {
    const g = await generate('minimonolith', {
      monolith: 'billing-hub',
      monolithVersion: '2.3.4',
      destFolder: 'apps/hub',
    });
    expect(g.run.code).toBe(0);
    expect(g.project.endsWith(path.join('apps', 'hub'))).toBe(true);
    expect(JSON.parse(g.read('package.json'))).toMatchObject({
      name: '@example/billing-hub',
      version: '2.3.4',
      bin: { 'billing-hub': './dist/src/main.js' },
    });
    expect(g.read('src/host.ts')).toContain("name: 'billing-hub', version: '2.3.4'");
    expect(g.read('src/config.ts')).toContain("export const ENV_PREFIX = 'BILLING_HUB';");
  });

  it('always: the info endpoints, OpenAPI and the admin UI, the notes service and their test', () => {
    for (const g of [off, on]) {
      expect(g.read('src/host.ts')).toMatch(/makeServiceRouter\(registry[\s\S]*makeAdminUiRouter\(/);
      expect(g.files).toEqual(
        expect.arrayContaining([
          'README.md',
          '.gitignore',
          'src/notes-service.ts',
          'src/composed-services.ts',
          'test/host.test.ts',
        ]),
      );
    }
  });

  it('jpa: a kysely store with a migration, or memory only', () => {
    expect(on.files).toEqual(
      expect.arrayContaining(['migrations/0001_notes.sql', 'src/sql-notes-store.ts', 'test/persistence.test.ts']),
    );
    expect(on.read('src/host.ts')).toContain('makeSqlNotesStore(database())');
    expect(off.files).not.toContain('src/sql-notes-store.ts');
    expect(off.files.some((f) => f.startsWith('migrations/'))).toBe(false);
    expect(off.read('src/host.ts')).toContain('makeMemoryNotesStore()');
  });

  it('cloudSwitchEnabled: the service proxy from the remote-services setting, tested both ways', () => {
    expect(on.read('src/host.ts')).toContain('proxy: makeServiceProxy({ registry, services: config.remoteServices })');
    expect(on.files).toContain('test/proxy.test.ts');
    expect(off.read('src/host.ts')).not.toContain('makeServiceProxy');
    expect(off.read('src/config.ts')).not.toContain('REMOTE_SERVICES');
  });

  it('security: a bearer JWT interceptor (jose) and its tests', () => {
    expect(on.files).toEqual(expect.arrayContaining(['src/bearer-auth.ts', 'test/security.test.ts']));
    expect(JSON.parse(on.read('package.json')).dependencies.jose).toBeDefined();
    expect(off.files).not.toContain('src/bearer-auth.ts');
    expect(JSON.parse(off.read('package.json')).dependencies.jose).toBeUndefined();
  });

  it('enableMCP with mcpServerName and mcpInstructions: /mcp, the instructions verbatim', () => {
    expect(on.read('src/host.ts')).toContain("makeMcpRouter(registry, { name: 'shop-tools'");
    expect(on.read('mcp-instructions.txt')).toBe('Use "notes" for notes\n');
    expect(on.files).toContain('test/mcp.test.ts');
    expect(off.read('src/host.ts')).not.toContain('makeMcpRouter');
    expect(off.files).not.toContain('mcp-instructions.txt');
  });

  it('enableServiceRegistry: the registry service at /serviceregistry', () => {
    expect(on.read('src/host.ts')).toContain('services.push(makeServiceRegistryService())');
    expect(on.files).toContain('test/registry.test.ts');
    expect(off.read('src/host.ts')).not.toContain('makeServiceRegistryService');
  });

  it('enableServiceRegistryDelegate with serviceRegistryUrl: registration at start', () => {
    expect(on.read('src/host.ts')).toContain('makeRegistryDelegate({ registryUrl: config.serviceRegistryUrl');
    expect(on.read('src/config.ts')).toContain("env.SERVICE_REGISTRY_URL || 'http://registry.internal:8080'");
    expect(on.files).toContain('test/delegate.test.ts');
    expect(off.read('src/host.ts')).not.toContain('makeRegistryDelegate');
  });

  it('enableQueryController: /q/{name} with a sample query, its seed and its test', () => {
    expect(on.files).toEqual(
      expect.arrayContaining([
        'src/queries.ts',
        'queries/mappers/catalog.xml',
        'queries/definitions/catalog.json',
        'queries/migrations/0100_catalog_items.sql',
        'test/queries.test.ts',
      ]),
    );
    expect(on.read('src/queries.ts')).toContain("export const QUERIES_DIR = path.join(PACKAGE_DIR, 'queries');");
    expect(JSON.parse(on.read('package.json'))).toMatchObject({
      files: expect.arrayContaining(['queries']),
      dependencies: { '@fw/query-controller': expect.any(String) },
    });
    expect(on.files).not.toContain('test/query-modules.test.ts');
    expect(off.files.some((f) => f.startsWith('queries/') || f === 'src/queries.ts')).toBe(false);
  });

  it('enableQueryController with security: the bearer check guards /q too', () => {
    expect(on.read('src/host.ts')).toContain("app.use('/q', makeBearerAuthMiddleware(config.jwtSecret));");
    expect(on.read('src/bearer-auth.ts')).toContain('export function makeBearerAuthMiddleware(');
    expect(on.read('test/queries.test.ts')).toContain('refuses a search without a bearer token');
  });

  it('dependencies with "<package>#queryModuleFiles": serves the query modules instead of the sample, and tests their queries', async () => {
    const g = await generate('minimonolith', {
      destFolder: 'qm',
      enableQueryController: true,
      dependencies: ['@example/shop-queries-query#queryModuleFiles', '@example/pricing#makePricingService'],
    });
    expect(g.run.code).toBe(0);
    const queries = g.read('src/queries.ts');
    expect(queries).toContain("import { queryModuleFiles as queryModule0Files } from '@example/shop-queries-query';");
    expect(queries).toContain("{ name: '@example/shop-queries-query', files: queryModule0Files },");
    expect(queries).not.toContain('QUERIES_DIR');
    expect(g.files.some((f) => f.startsWith('queries/'))).toBe(false);
    expect(g.files).toEqual(expect.arrayContaining(['test/query-modules.test.ts', 'test/composed.test.ts']));
    expect(g.files).not.toContain('test/queries.test.ts');
    expect(g.read('test/query-modules.test.ts')).toContain(
      "import { QUERY_NAME as queryModule0FilesQuery } from '@example/shop-queries-query';",
    );
    // The query module is no service package: only the pricing export is loaded as services.
    expect(g.read('src/composed-services.ts')).not.toContain('shop-queries-query');
    const pkg = JSON.parse(g.read('package.json'));
    expect(pkg.dependencies).toMatchObject({ '@example/shop-queries-query': '*', '@example/pricing': '*' });
    expect(pkg.files).not.toContain('queries');
    expect(g.read('README.md')).toContain('This host serves `@example/shop-queries-query`');
  });

  it('dependencies: a query module entry takes no argument export', async () => {
    const g = await generate('minimonolith', {
      destFolder: 'qm-bad',
      dependencies: ['@example/q#queryModuleFiles(readSettings)'],
    });
    expect(g.run.code).toBe(1);
    expect(g.run.err.join('\n')).toContain('takes no argument');
    expect(existsSync(g.project)).toBe(false);
  });

  it('enableDbConsole: the SQL console, mounted in the dev profile only', () => {
    expect(on.read('src/host.ts')).toContain("if (config.profile === 'dev') app.use(makeDbConsoleRouter(database));");
    expect(on.files).toEqual(expect.arrayContaining(['src/db-console.ts', 'test/db-console.test.ts']));
    expect(off.files).not.toContain('src/db-console.ts');
  });

  it('dependencies: imports each package export (with its settings export), lists the packages, tests them', async () => {
    const g = await generate('minimonolith', {
      destFolder: 'deps',
      dependencies: ['@example/shop-service#createShopServices(readSettings)', '@example/pricing#makePricingService'],
    });
    expect(g.run.code).toBe(0);
    const composed = g.read('src/composed-services.ts');
    expect(composed).toContain(
      "import { createShopServices as dependency0CreateShopServices, readSettings as dependency0ReadSettings } from '@example/shop-service';",
    );
    expect(composed).toContain(
      "{ package: '@example/shop-service', load: () => dependency0CreateShopServices(dependency0ReadSettings()) },",
    );
    expect(composed).toContain("{ package: '@example/pricing', load: () => dependency1MakePricingService() },");
    expect(JSON.parse(g.read('package.json')).dependencies).toMatchObject({
      '@example/pricing': '*',
      '@example/shop-service': '*',
    });
    expect(g.files).toContain('test/composed.test.ts');
    expect(off.files).not.toContain('test/composed.test.ts');
  });

  it('dependencies: a malformed entry is refused before anything is written', async () => {
    const g = await generate('minimonolith', {
      destFolder: 'bad',
      dependencies: ['@example/shop-service', 'Not A Package#x'],
    });
    expect(g.run.code).toBe(1);
    expect(g.run.err.join('\n')).toMatch(/dependencies[\s\S]*\[0\][\s\S]*\[1\]/);
    expect(existsSync(g.project)).toBe(false);
  });
});

describe('minimonolith type-checks against the workspace', () => {
  it('the sample (defaults)', async () => {
    const g = await generate('minimonolith');
    expect(g.run.code).toBe(0);
    typeCheckProject(g.project, ['src/**/*.ts', 'test/**/*.ts']);
  }, 120_000);

  it('every option on', () => {
    linkMcpSdk(on.project);
    typeCheckProject(on.project, ['src/**/*.ts', 'test/**/*.ts']);
  }, 120_000);

  it('serving a query module (mapperQuery generated next to it)', async () => {
    const module = await generate('mapperQuery', {
      namespace: 'shop-queries',
      destFolder: 'shop-queries',
      security: true,
    });
    const host = await generate('minimonolith', {
      ...ALL_ON,
      destFolder: 'qm-host',
      dependencies: ['@example/shop-queries-query#queryModuleFiles'],
    });
    expect(host.run.code).toBe(0);
    linkMcpSdk(host.project);
    linkPackageSources(host.project, '@example/shop-queries-query', module.project);
    typeCheckProject(host.project, ['src/**/*.ts', 'test/**/*.ts', `${module.project}/src/**/*.ts`]);
  }, 120_000);

  it('every option off', () => {
    typeCheckProject(off.project, ['src/**/*.ts', 'test/**/*.ts']);
  }, 120_000);
});
