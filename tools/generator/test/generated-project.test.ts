/**
 * Each blueprint's sample generates a project whose sources type-check against this workspace's
 * packages (no install: `@fw/*` mapped to the libraries' sources). The full proof — npm install
 * from packed tarballs and the generated project's own `npm test` — is in tools/pack-check.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../src/cli/cli';
import { removeTempDirs, snapshot, tempDir } from './support';

const ROOT = path.resolve(__dirname, '../../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

afterAll(removeTempDirs);

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), cwd });
  return { code, out, err };
}

/** A tsconfig resolving @fw/* to the workspace sources and the project's own packages to theirs. */
function checkConfig(project: string, scope: string, packages: string[]): string {
  const paths: Record<string, string[]> = {
    '@fw/core/http': [path.join(ROOT, 'libs/core/src/http.ts')],
    '@fw/migrate': [path.join(ROOT, 'tools/migrate/src/index.ts')],
    '@fw/*': [path.join(ROOT, 'libs/*/src/index.ts')],
    express: [path.join(ROOT, 'node_modules/@types/express/index.d.ts')],
  };
  for (const p of packages) paths[`${scope}/${p}`] = [path.join(project, p, 'src/index.ts')];
  const file = path.join(project, 'tsconfig.check.json');
  writeFileSync(
    file,
    JSON.stringify({
      extends: './tsconfig.base.json',
      compilerOptions: {
        noEmit: true,
        baseUrl: ROOT,
        paths,
        typeRoots: [path.join(ROOT, 'node_modules/@types')],
        types: ['node'],
      },
      include: packages.flatMap((p) => [`${p}/src/**/*.ts`, `${p}/test/**/*.ts`]),
    }),
  );
  return file;
}

function typeCheck(config: string): void {
  try {
    execFileSync(process.execPath, [TSC, '-p', config], { encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    throw new Error(`tsc failed:\n${(err as { stdout?: string }).stdout ?? ''}`, { cause: err });
  }
}

describe('fw-process-management: the sample generates a project that type-checks', () => {
  it('-g writes the sample, -f generates the four workspaces, tsc --noEmit passes', async () => {
    const dir = tempDir();
    expect((await cli(['-g', 'fw-process-management', '-o', 'spec.json'], dir)).code).toBe(0);
    const generated = await cli(['-f', 'spec.json'], dir);
    expect(generated).toMatchObject({ code: 0, err: [] });
    const project = path.join(dir, 'orders');
    const files = Object.keys(snapshot(project));
    expect(files).toEqual(
      expect.arrayContaining([
        '.fw-gen.json',
        '.gitignore',
        'README.md',
        'package.json',
        'orders-api/src/index.ts',
        'orders-configurations/definitions/process-definitions.json',
        'orders-configurations/definitions/cron-triggers.json',
        'orders-service/src/processes/file-import.ts',
        'orders-service/src/processes/file-chunk.ts',
        'orders-service/src/processes/page-sync.ts',
        'orders-service/test/processes.test.ts',
        'orders-package/bin/orders.js',
      ]),
    );
    const defs = JSON.parse(
      readFileSync(path.join(project, 'orders-configurations/definitions/process-definitions.json'), 'utf8'),
    );
    expect(defs.find((d: { processType: string }) => d.processType === 'file-chunk')).toMatchObject({
      leaf: true,
      parentProcessType: 'file-import',
    });
    expect(defs.find((d: { processType: string }) => d.processType === 'import-report')).toMatchObject({
      predecessorProcessType: 'file-import',
      predecessorArgs: 'INPUT',
    });
    typeCheck(checkConfig(project, '@example', ['orders-api', 'orders-configurations', 'orders-service']));
  }, 120_000);
});

describe('fw-process-management with registerInServiceRegistry and definitions from JSON', () => {
  it('adds the registration module and its test; tsc --noEmit passes', async () => {
    const dir = tempDir();
    await cli(['-g', 'fw-process-management', '-o', 'spec.json'], dir);
    const input = JSON.parse(readFileSync(path.join(dir, 'spec.json'), 'utf8'));
    const answers = {
      ...input.answers,
      application: 'registered',
      destFolder: 'reg',
      definitionSource: 'json',
      registerInServiceRegistry: true,
      serviceRegistryUrl: 'http://registry:8080',
    };
    writeFileSync(path.join(dir, 'reg.json'), JSON.stringify({ ...input, answers }));
    expect((await cli(['-f', 'reg.json'], dir)).code).toBe(0);
    const project = path.join(dir, 'reg');
    expect(readFileSync(path.join(project, 'registered-service/src/registry.ts'), 'utf8')).toContain(
      "DEFAULT_REGISTRY_URL = 'http://registry:8080'",
    );
    expect(Object.keys(snapshot(project))).toContain('registered-service/test/registry.test.ts');
    typeCheck(checkConfig(project, '@example', ['registered-api', 'registered-configurations', 'registered-service']));
  }, 120_000);
});

describe('batch: the sample hierarchy generates the same workspaces, type-checked', () => {
  it('flattens the steps into processes, definitions from JSON, and tsc --noEmit passes', async () => {
    const dir = tempDir();
    expect((await cli(['-g', 'batch', '-o', 'batch-input.json'], dir)).code).toBe(0);
    expect((await cli(['-f', 'batch-input.json'], dir)).code).toBe(0);
    const project = path.join(dir, 'nightly');
    const files = Object.keys(snapshot(project));
    expect(files).toEqual(
      expect.arrayContaining([
        'nightly-service/src/processes/nightly-close.ts',
        'nightly-service/src/processes/post-entries.ts',
        'nightly-service/src/processes/archive-chunk.ts',
      ]),
    );
    const defs = JSON.parse(
      readFileSync(path.join(project, 'nightly-configurations/definitions/process-definitions.json'), 'utf8'),
    );
    expect(defs.find((d: { processType: string }) => d.processType === 'post-entries')).toMatchObject({
      leaf: true,
      parentProcessType: 'close-ledger',
    });
    expect(defs.find((d: { processType: string }) => d.processType === 'nightly-close')).toMatchObject({
      config: { ledgers: '3' },
    });
    expect(readFileSync(path.join(project, 'nightly-service/src/host.ts'), 'utf8')).toContain(
      "DEFINITION_SOURCE: 'json' | 'database' = 'json'",
    );
    expect(JSON.parse(readFileSync(path.join(project, '.fw-gen.json'), 'utf8'))).toMatchObject({
      blueprint: 'batch',
      answers: { batch: 'nightly', batchJson: 'batch.json' },
    });
    typeCheck(checkConfig(project, '@example', ['nightly-api', 'nightly-configurations', 'nightly-service']));
  }, 120_000);
});

describe('generator-blueprint: a new blueprint module that fw-gen --blueprints runs', () => {
  it('generates the module; its blueprint is listed and generates a package', async () => {
    const dir = tempDir();
    expect((await cli(['-g', 'generator-blueprint', '-o', 'gb.json'], dir)).code).toBe(0);
    expect((await cli(['-f', 'gb.json'], dir)).code).toBe(0);
    const blueprints = path.join(dir, 'my-service-blueprint/blueprints');
    expect((await cli(['--list', '--blueprints', blueprints], dir)).out.join('\n')).toMatch(/^my-service\s+0\.1\.0/m);
    expect((await cli(['-g', 'my-service', '-o', 'ms.json', '--blueprints', blueprints], dir)).code).toBe(0);
    expect((await cli(['-f', 'ms.json', '--blueprints', blueprints], dir)).code).toBe(0);
    expect(readFileSync(path.join(dir, 'greeter/src/greeter.js'), 'utf8')).toContain('`hello ${name}, from greeter`');
    expect(Object.keys(snapshot(path.join(dir, 'greeter')))).toEqual([
      '.fw-gen.json',
      'README.md',
      'db/schema.sql',
      'package.json',
      'src/greeter.js',
      'test/greeter.test.js',
    ]);
  });
});
