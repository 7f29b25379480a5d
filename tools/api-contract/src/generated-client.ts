/**
 * A client generated from a served document, as a new user would make one: `openapi-typescript`
 * with its default options writes the types into `.generated/<host>.ts`, and the hand-written
 * client of that host (`clients/<host>-client.ts`, on `openapi-fetch`) is compiled against them by
 * a strict `tsc --noEmit`. A document that generators misread (a free-form object read as "no
 * properties", a request field with a default read as required) shows up as a compile error of
 * the client.
 *
 * @example
 * await writeGeneratedTypes('admin-server', doc);
 * const diagnostics = compileClients(['admin-server']);   // [] when the client compiles
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { OpenApiJson } from './contract-hosts';
import { runEsmScript } from './esm-script';

/** This package's folder. */
export const PACKAGE_DIR = path.resolve(__dirname, '..');
/** Where the generated types go (ignored by git; rewritten by every run). */
export const GENERATED_DIR = path.join(PACKAGE_DIR, '.generated');
/** The hand-written clients, one per host. */
export const CLIENTS_DIR = path.join(PACKAGE_DIR, 'clients');
const ROOT = path.resolve(PACKAGE_DIR, '../..');

/**
 * The compiler options of the check: `strict` and the stricter checks a careful team turns on
 * besides. `skipLibCheck` is off so the generated file itself is checked too.
 */
export const STRICT_COMPILER_OPTIONS = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  skipLibCheck: false,
  noEmit: true,
  target: 'ES2022',
  lib: ['ES2023', 'DOM'],
  module: 'node16',
  moduleResolution: 'node16',
  types: [],
} as const;

/** Arguments: the document's file, the file to write. openapi-typescript's Node API with its default options. */
const GENERATE_SCRIPT = `
import openapiTS, { astToString } from 'openapi-typescript';
import { readFileSync, writeFileSync } from 'node:fs';
const ast = await openapiTS(JSON.parse(readFileSync(process.argv[1], 'utf8')));
writeFileSync(process.argv[2], astToString(ast));
`;

/** Runs openapi-typescript (default options) over `document` and writes `.generated/<name>.ts`; returns its path. */
export async function writeGeneratedTypes(name: string, document: OpenApiJson): Promise<string> {
  mkdirSync(GENERATED_DIR, { recursive: true });
  const source = path.join(GENERATED_DIR, `${name}.openapi.json`);
  const file = path.join(GENERATED_DIR, `${name}.ts`);
  writeFileSync(source, JSON.stringify(document, null, 2));
  await runEsmScript(GENERATE_SCRIPT, [source, file]);
  return file;
}

/**
 * `tsc --noEmit` with {@link STRICT_COMPILER_OPTIONS} over the clients of `hosts` (and so over
 * their generated types); returns tsc's diagnostics, one line each (none: it compiles).
 */
export function compileClients(hosts: readonly string[]): string[] {
  const project = path.join(GENERATED_DIR, 'tsconfig.json');
  mkdirSync(GENERATED_DIR, { recursive: true });
  const files = hosts.map((host) => path.join(CLIENTS_DIR, `${host}-client.ts`));
  writeFileSync(project, JSON.stringify({ compilerOptions: STRICT_COMPILER_OPTIONS, files }, null, 2));
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  try {
    execFileSync(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
      cwd: PACKAGE_DIR,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return [];
  } catch (err) {
    const output = (err as { stdout?: string }).stdout ?? String(err);
    return output.split('\n').filter((line) => line.includes('error TS'));
  }
}
