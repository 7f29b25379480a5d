/**
 * The generator configuration: framework version (the version gate compares blueprints'
 * `sinceVersion` with it), the defaults of generated projects, and where generated projects take
 * the @fw packages from. `fw-gen -e` writes it to `./config/generator.json` for editing; later runs
 * read that file when it exists.
 */
import Ajv from 'ajv';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { GeneratorError, GeneratorErrorCodes } from '../errors';

export interface GeneratorConfig {
  /** The framework release generated code targets (a blueprint whose `sinceVersion` is newer is refused). */
  fwVersion: string;
  /** npm scope of generated packages (`example` → `@example/orders-api`). */
  package: string;
  /** Default version of generated projects. */
  version: string;
  /** Folder generated projects go under by default. */
  destFolder: string;
  /** `registry` (semver ranges) or `local:<folder of tarballs>` (`file:` dependencies on packed @fw tarballs). */
  packageSource: string;
}

export const DEFAULT_CONFIG_FILE = path.join('config', 'generator.json');

/** The @fw packages generated projects depend on are this package's release. */
export const FW_PACKAGES_VERSION: string = (
  JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }
).version;

export const DEFAULT_CONFIG: GeneratorConfig = {
  // The framework release the generated code targets; the newest built-in blueprints need
  // 2.1.31 (their `sinceVersion`), so the default configuration runs every built-in blueprint.
  fwVersion: '2.1.31',
  package: 'example',
  version: '0.1.0',
  destFolder: '.',
  packageSource: 'registry',
};

const CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['fwVersion', 'package', 'version', 'destFolder', 'packageSource'],
  properties: {
    fwVersion: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+(?:-[0-9A-Za-z.-]+)?$' },
    package: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,63}$' },
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+(?:-[0-9A-Za-z.-]+)?$' },
    destFolder: { type: 'string', minLength: 1 },
    packageSource: { type: 'string', pattern: '^(registry|local:.+)$' },
  },
} as const;

const validate = new Ajv({ allErrors: true }).compile(CONFIG_SCHEMA);

/** Checks a configuration object; a relative `local:` folder is resolved against `baseDir`. */
export function parseConfig(raw: unknown, source: string, baseDir: string): GeneratorConfig {
  if (!validate(raw)) {
    const problems = (validate.errors ?? []).map(
      (e) =>
        `${e.instancePath.slice(1) || '(top level)'}: ${e.message ?? 'is invalid'}${e.keyword === 'additionalProperties' ? ` '${String(e.params.additionalProperty)}'` : ''}`,
    );
    throw new GeneratorError(
      GeneratorErrorCodes.CONFIG_INVALID,
      `${source} is not a valid generator configuration`,
      problems,
    );
  }
  const config = { ...(raw as unknown as GeneratorConfig) };
  if (config.packageSource.startsWith('local:'))
    config.packageSource = `local:${path.resolve(baseDir, config.packageSource.slice('local:'.length))}`;
  return config;
}

/** Reads `file` (default `./config/generator.json` when it exists, else the built-in defaults). */
export function loadConfig(file: string | undefined, cwd: string): { config: GeneratorConfig; source: string } {
  const chosen = file ?? (existsSync(path.join(cwd, DEFAULT_CONFIG_FILE)) ? DEFAULT_CONFIG_FILE : undefined);
  if (!chosen) return { config: { ...DEFAULT_CONFIG }, source: 'built-in defaults' };
  const full = path.resolve(cwd, chosen);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(full, 'utf8'));
  } catch (err) {
    throw new GeneratorError(
      GeneratorErrorCodes.CONFIG_INVALID,
      `${full}: not readable JSON (${(err as Error).message})`,
    );
  }
  // A relative `local:` folder is relative to where fw-gen runs, as every other path it is given.
  return { config: parseConfig(raw, full, cwd), source: full };
}

/** `fw-gen -e`: writes the configuration in use to `./config/generator.json`; refuses to overwrite unless `force`. */
export function emitConfig(config: GeneratorConfig, cwd: string, force: boolean): string {
  const file = path.join(cwd, DEFAULT_CONFIG_FILE);
  if (existsSync(file) && !force) {
    throw new GeneratorError(
      GeneratorErrorCodes.DESTINATION_NOT_EMPTY,
      `${file} exists: edit it, or give --force to overwrite it`,
    );
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/** Compares dotted versions numerically (`2.1.31` > `2.1.4`); a pre-release sorts before its release. */
export function compareVersions(a: string, b: string): number {
  const [coreA, preA] = a.split('-', 2);
  const [coreB, preB] = b.split('-', 2);
  const pa = coreA.split('.').map(Number);
  const pb = coreB.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
}
