import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../errors/fw-error';

/** A JSON configuration file after `${ENV}` interpolation. */
export interface LoadedConfig {
  /** The parsed, interpolated JSON. Validate it with the schema of the host that reads it. */
  readonly data: unknown;
  /** Absolute path of the file, or undefined for configs built in code. */
  readonly file?: string;
  /** Folder that relative paths in the config are resolved against. */
  readonly baseDir: string;
  /** Resolves a path written in the config relative to the config file. */
  resolvePath(value: string): string;
}

export interface LoadConfigOptions {
  /** Variables for `${NAME}`; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
}

const PLACEHOLDER = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

function interpolate(value: unknown, env: NodeJS.ProcessEnv, where: string, file: string): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (match, name: string | undefined, fallback: string | undefined) => {
      if (match === '$$') return '$';
      const resolved = env[name as string];
      // A variable set to '' is set (trust/peer/.pgpass passwords are empty); only `:-default`
      // treats empty like unset, as the shell does.
      if (fallback !== undefined) return resolved === undefined || resolved === '' ? fallback : resolved;
      if (resolved !== undefined) return resolved;
      throw new ConfigError(
        `${file}: ${where} uses \${${name}}, but environment variable ${name} is not set (set it, or write \${${name}:-default})`,
      );
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => interpolate(item, env, `${where}[${i}]`, file));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      out[key] = interpolate(item, env, where ? `${where}.${key}` : key, file);
    return out;
  }
  return value;
}

/** Builds a {@link LoadedConfig} from an object already in memory (hosts embedded in code, tests). */
export function configFromObject(
  data: unknown,
  baseDir: string = process.cwd(),
  options: LoadConfigOptions = {},
): LoadedConfig {
  const interpolated = interpolate(data, options.env ?? process.env, '', '<config object>');
  return { data: interpolated, baseDir, resolvePath: (value) => path.resolve(baseDir, value) };
}

/**
 * Reads a JSON config file, replacing `${NAME}` (or `${NAME:-default}`) in every string with the
 * environment variable; `$$` writes a literal `$`. Relative paths are later resolved against the
 * file's folder through `resolvePath`.
 *
 * @example
 * const config = loadConfigFile('config/query-host.json');
 * const mappers = config.resolvePath('mappers'); // <folder of the file>/mappers
 *
 * @throws ConfigError naming the file and the key when the file is missing, is not JSON, or
 *   refers to an unset variable.
 */
export function loadConfigFile(file: string, options: LoadConfigOptions = {}): LoadedConfig {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (err) {
    throw new ConfigError(`Cannot read config file ${absolute}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`Config file ${absolute} is not valid JSON: ${(err as Error).message}`);
  }
  const baseDir = path.dirname(absolute);
  const data = interpolate(parsed, options.env ?? process.env, '', absolute);
  return { data, file: absolute, baseDir, resolvePath: (value) => path.resolve(baseDir, value) };
}
