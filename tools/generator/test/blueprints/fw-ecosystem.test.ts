/**
 * fw-ecosystem: each prompt's effect on the composed tree, the staging rule for a failing composed
 * generation, and the composed monolith type-checked against the workspace with the service it
 * hosts. The full `npm install && npm test` of a generated ecosystem runs in tools/pack-check.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { removeTempDirs } from '../support';
import { generate, typeCheckProject, type Generated } from './support';

afterAll(removeTempDirs);

const ALL_ON = {
  security: true,
  jpa: true,
  includeServiceRegistry: true,
  serviceRegistryUrl: 'http://registry.shop:9000',
  includeCconfig: true,
  includeHeadlessService: true,
  includeQueryService: true,
};

let defaults: Generated;
let on: Generated;
beforeAll(async () => {
  defaults = await generate('fw-ecosystem', { destFolder: 'defaults' });
  on = await generate('fw-ecosystem', { ...ALL_ON, destFolder: 'on' });
});

const rootOf = (
  g: Generated,
): { workspaces: string[]; scripts: Record<string, string>; devDependencies: Record<string, string> } =>
  JSON.parse(g.read('package.json'));
const recordOf = (g: Generated, folder: string): { blueprint: string; answers: Record<string, unknown> } =>
  JSON.parse(g.read(`${folder}/.fw-gen.json`));

describe('fw-ecosystem prompts', () => {
  it('ecosystem, ecosystemVersion, destFolder, service, monolith: names, versions, folders', async () => {
    const g = await generate('fw-ecosystem', {
      ecosystem: 'farm',
      ecosystemVersion: '3.0.0',
      destFolder: 'x/farm',
      service: 'barn',
      monolith: 'yard',
    });
    expect(g.run.code).toBe(0);
    expect(rootOf(g)).toMatchObject({ workspaces: ['barn/barn-api', 'barn/barn-service', 'yard'] });
    expect(JSON.parse(g.read('yard/package.json'))).toMatchObject({
      name: '@example/yard',
      version: '3.0.0',
      dependencies: { '@example/barn-service': '*' },
    });
    expect(recordOf(g, 'barn')).toMatchObject({
      blueprint: 'fw-service',
      answers: { service: 'barn', serviceVersion: '3.0.0' },
    });
  });

  it('defaults: service ${ecosystem}Service and monolith ${ecosystem}Monolith, the monolith hosting the service', () => {
    expect(rootOf(defaults).workspaces).toEqual([
      'shop-service/shop-service-api',
      'shop-service/shop-service-service',
      'shop-monolith',
    ]);
    expect(defaults.read('shop-monolith/src/composed-services.ts')).toContain(
      "import { createShopServiceServices as dependency0CreateShopServiceServices, readSettings as dependency0ReadSettings } from '@example/shop-service-service';",
    );
    expect(rootOf(defaults).scripts.test).toBe('npm run build --workspaces --if-present && npm test --workspaces');
  });

  it('security and jpa reach the composed service and monolith', () => {
    expect(recordOf(on, 'shop-service').answers).toMatchObject({ security: true, jpa: true });
    expect(recordOf(on, 'shop-monolith').answers).toMatchObject({ security: true, jpa: true });
    expect(recordOf(defaults, 'shop-service').answers).toMatchObject({ security: false, jpa: true });
    expect(rootOf(on).scripts.test).toContain('SHOP_SERVICE_JWT_SECRET=${SHOP_SERVICE_JWT_SECRET:-');
    const off = recordOf(defaults, 'shop-monolith').answers;
    expect(off.security).toBe(false);
  });

  it('includeServiceRegistry with serviceRegistryMonolith and serviceRegistryUrl: the registry host, the others register', () => {
    expect(recordOf(on, 'shop-registry').answers).toMatchObject({ enableServiceRegistry: true });
    expect(recordOf(on, 'shop-monolith').answers).toMatchObject({
      enableServiceRegistryDelegate: true,
      serviceRegistryUrl: 'http://registry.shop:9000',
    });
    expect(defaults.files.some((f) => f.startsWith('shop-registry/'))).toBe(false);
    expect(recordOf(defaults, 'shop-monolith').answers.enableServiceRegistryDelegate).toBe(false);
  });

  it('includeCconfig: the central config workspace, first', () => {
    expect(rootOf(on).workspaces[0]).toBe('shop-config');
    expect(on.read('shop-config/src/index.ts')).toContain(
      "export const SERVICE_REGISTRY_URL = 'http://registry.shop:9000';",
    );
    expect(defaults.files.some((f) => f.startsWith('shop-config/'))).toBe(false);
  });

  it('includeHeadlessService with headlessService and headlessMonolith: the service and a monolith hosting it', () => {
    expect(recordOf(on, 'shop-headless')).toMatchObject({
      blueprint: 'fw-headless-service',
      answers: { registerInServiceRegistry: true },
    });
    expect(on.read('shop-headless-monolith/src/composed-services.ts')).toContain("from '@example/shop-headless'");
    expect(defaults.files.some((f) => f.startsWith('shop-headless'))).toBe(false);
  });

  it('includeQueryService with queryNamespace and queryMonolith: the query module and a query monolith', () => {
    expect(recordOf(on, 'shop-queries')).toMatchObject({
      blueprint: 'mapperQuery',
      answers: { namespace: 'shop-queries', security: true },
    });
    expect(recordOf(on, 'shop-query-monolith').answers).toMatchObject({
      enableQueryController: true,
      dependencies: ['@example/shop-queries-query#queryModuleFiles'],
    });
    // The query monolith serves the module generated next to it, not a sample of its own.
    expect(JSON.parse(on.read('shop-query-monolith/package.json')).dependencies['@example/shop-queries-query']).toBe(
      '*',
    );
    expect(on.read('shop-query-monolith/src/queries.ts')).toContain(
      "import { queryModuleFiles as queryModule0Files } from '@example/shop-queries-query';",
    );
    expect(on.files.some((f) => f.startsWith('shop-query-monolith/queries/'))).toBe(false);
    expect(on.read('shop-query-monolith/test/query-modules.test.ts')).toContain("from '@example/shop-queries-query'");
    // npm workspaces build in order: the module before the monolith that imports its declarations.
    const workspaces = rootOf(on).workspaces;
    expect(workspaces.indexOf('shop-queries')).toBeLessThan(workspaces.indexOf('shop-query-monolith'));
    expect(on.read('README.md')).toContain('`POST /q/shop-queries-items`');
    expect(defaults.files.some((f) => f.startsWith('shop-quer'))).toBe(false);
  });

  it('hoists the composed roots shared devDependencies into the workspaces root', () => {
    expect(Object.keys(rootOf(defaults).devDependencies)).toEqual(
      expect.arrayContaining(['@fw/core', '@fw/service', 'typescript']),
    );
  });

  it('a failing composed generation writes nothing', async () => {
    const g = await generate('fw-ecosystem', { destFolder: 'broken', service: 'ok', monolith: 'bad name!' });
    expect(g.run.code).toBe(1);
    expect(existsSync(g.project)).toBe(false);
  });
});

/**
 * What `npm install` does for a workspace package, without installing: `node_modules/<name>` in the
 * ecosystem root, here a declaration re-exporting the package's sources (not yet built).
 */
function linkWorkspacePackage(root: string, name: string, folder: string): void {
  const dir = path.join(root, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, types: 'index.d.ts' }));
  writeFileSync(path.join(dir, 'index.d.ts'), `export * from '${path.join(root, folder, 'src/index')}';\n`);
}

describe('fw-ecosystem type-checks against the workspace', () => {
  it('the monolith with the service it hosts (sample answers)', () => {
    const monolith = path.join(defaults.project, 'shop-monolith');
    const service = path.join(defaults.project, 'shop-service');
    expect(readFileSync(path.join(service, 'shop-service-service/src/index.ts'), 'utf8')).toContain(
      'createShopServiceServices',
    );
    // The service packages resolve to their sources, as npm workspaces would link them.
    linkWorkspacePackage(defaults.project, '@example/shop-service-service', 'shop-service/shop-service-service');
    linkWorkspacePackage(defaults.project, '@example/shop-service-api', 'shop-service/shop-service-api');
    typeCheckProject(monolith, [
      'src/**/*.ts',
      'test/**/*.ts',
      `${service}/shop-service-service/src/**/*.ts`,
      `${service}/shop-service-api/src/**/*.ts`,
    ]);
  }, 120_000);

  it('the query monolith with the query module it serves (every option on)', () => {
    const queries = path.join(on.project, 'shop-queries');
    linkWorkspacePackage(on.project, '@example/shop-queries-query', 'shop-queries');
    typeCheckProject(path.join(on.project, 'shop-query-monolith'), [
      'src/**/*.ts',
      'test/**/*.ts',
      `${queries}/src/**/*.ts`,
    ]);
  }, 120_000);
});
