/**
 * Shared helpers of the blueprint tests: generate a blueprint's sample (with some answers
 * changed) through the real CLI, read the generated files, and type-check a generated project's
 * sources against this workspace's packages (no install: `@fw/*` mapped to the libraries'
 * sources, third-party types from the root node_modules).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../src/cli/cli';
import { snapshot, tempDir } from '../support';

export const ROOT = path.resolve(__dirname, '../../../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

export interface CliRun {
  code: number;
  out: string[];
  err: string[];
}

export async function cli(args: string[], cwd: string): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), cwd });
  return { code, out, err };
}

export interface Generated {
  /** The folder fw-gen ran in. */
  dir: string;
  /** The generated project. */
  project: string;
  /** Relative paths of every generated file, sorted. */
  files: string[];
  read(relative: string): string;
  run: CliRun;
}

/**
 * `-g <blueprint> -o input.json`, then `-f` with `answers` laid over the sample's. The project
 * folder is the answer `destFolder` (relative to the run folder). `config` keys, when given, are
 * written to the run folder's `config/generator.json` (over the built-in defaults) first.
 */
export async function generate(
  blueprint: string,
  answers: Record<string, unknown> = {},
  config?: Record<string, unknown>,
): Promise<Generated> {
  const dir = tempDir(`fw-gen-${blueprint}-`);
  if (config) {
    mkdirSync(path.join(dir, 'config'));
    writeFileSync(
      path.join(dir, 'config/generator.json'),
      JSON.stringify({
        fwVersion: '2.1.31',
        package: 'example',
        version: '0.1.0',
        destFolder: '.',
        packageSource: 'registry',
        ...config,
      }),
    );
  }
  const sample = await cli(['-g', blueprint, '-o', 'input.json'], dir);
  if (sample.code !== 0) throw new Error(`-g ${blueprint} failed: ${sample.err.join('\n')}`);
  const input = JSON.parse(readFileSync(path.join(dir, 'input.json'), 'utf8')) as {
    blueprint: string;
    answers: Record<string, unknown>;
  };
  const merged = { ...input.answers, ...answers };
  writeFileSync(path.join(dir, 'input.json'), JSON.stringify({ ...input, answers: merged }));
  const run = await cli(['-f', 'input.json'], dir);
  const project = path.resolve(dir, String(merged.destFolder));
  return {
    dir,
    project,
    files: Object.keys(snapshot(project)),
    read: (relative) => readFileSync(path.join(project, relative), 'utf8'),
    run,
  };
}

/** Module paths of the workspace: the @fw libraries' sources and the root's third-party types. */
function workspacePaths(): Record<string, string[]> {
  return {
    '@fw/core/http': [path.join(ROOT, 'libs/core/src/http.ts')],
    '@fw/service/mcp': [path.join(ROOT, 'libs/service/src/mcp.ts')],
    '@fw/migrate': [path.join(ROOT, 'tools/migrate/src/index.ts')],
    '@fw/*': [path.join(ROOT, 'libs/*/src/index.ts')],
    express: [path.join(ROOT, 'node_modules/@types/express/index.d.ts')],
    jose: [path.join(ROOT, 'node_modules/jose/dist/types/index.d.ts')],
  };
}

/**
 * `tsc --noEmit` over `include` (globs relative to the project) with the project's own
 * `tsconfig` (its compiler options: module, strictness) plus the workspace paths.
 * @throws Error with tsc's output when it fails
 */
export function typeCheckProject(project: string, include: string[], tsconfig = 'tsconfig.json'): void {
  if (!existsSync(path.join(project, tsconfig))) throw new Error(`${project} has no ${tsconfig}`);
  const file = path.join(project, 'tsconfig.check.json');
  writeFileSync(
    file,
    JSON.stringify({
      extends: `./${tsconfig}`,
      // The project's rootDir is its own folder; the mapped workspace sources lie outside it.
      compilerOptions: {
        noEmit: true,
        rootDir: '/',
        baseUrl: ROOT,
        paths: workspacePaths(),
        typeRoots: [path.join(ROOT, 'node_modules/@types')],
        types: ['node'],
      },
      include,
    }),
  );
  try {
    execFileSync(process.execPath, [TSC, '-p', file], { encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    throw new Error(`tsc failed:\n${(err as { stdout?: string }).stdout ?? ''}`, { cause: err });
  }
}

/**
 * `tsc --noEmit` over the service package with @fw/* mapped to the workspace sources and the
 * third-party modules it imports (jose, the MCP SDK client) to the root's node_modules.
 */
export function typeCheckWorkflowPackage(pkg: string): void {
  const modules = path.join(ROOT, 'node_modules');
  const file = path.join(pkg, 'tsconfig.check.json');
  writeFileSync(
    file,
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: {
        noEmit: true,
        rootDir: '/',
        baseUrl: ROOT,
        paths: {
          '@fw/core/http': [path.join(ROOT, 'libs/core/src/http.ts')],
          '@fw/service/mcp': [path.join(ROOT, 'libs/service/src/mcp.ts')],
          '@fw/migrate': [path.join(ROOT, 'tools/migrate/src/index.ts')],
          '@fw/*': [path.join(ROOT, 'libs/*/src/index.ts')],
          express: [path.join(modules, '@types/express/index.d.ts')],
          jose: [path.join(modules, 'jose/dist/types/index.d.ts')],
          '@modelcontextprotocol/sdk/*': [path.join(modules, '@modelcontextprotocol/sdk/dist/cjs/*')],
        },
        typeRoots: [path.join(modules, '@types')],
        types: ['node'],
      },
      include: ['src/**/*.ts', 'test/**/*.ts'],
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
