import { ConfigError, type LoadedConfig } from '@fw/core';
import { type DataSourceConfig, parseQueryConfig, type QueryConfig } from '@fw/query-core';

/** The `server` section of a query host config. */
export interface ServerConfig {
  /** TCP port; default 8081 (0 picks a free port, for tests). */
  port: number;
  /** Interface to listen on; default 127.0.0.1 (use 0.0.0.0 to accept remote callers). */
  bindAddress: string;
}

/** A validated query host config. */
export interface HostConfig {
  server: ServerConfig;
  query: QueryConfig;
  dataSources: Record<string, DataSourceConfig>;
  /** Folder that relative paths (mapper/definition patterns, `pglite:` folders) are resolved against. */
  baseDir: string;
  /** The config file, for messages (`<config object>` when built in code). */
  source: string;
}

export const SERVER_DEFAULTS: Readonly<ServerConfig> = { port: 8081, bindAddress: '127.0.0.1' };

const TOP_LEVEL_KEYS = ['server', 'query', 'dataSources'] as const;
const SERVER_KEYS = ['port', 'bindAddress'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownKeys(value: Record<string, unknown>, known: readonly string[]): string[] {
  return Object.keys(value).filter((key) => !known.includes(key));
}

/** Reads `server.port`: an integer 0..65535, or such a number written as a string (after `${PORT}`). */
function parsePort(value: unknown, source: string): number {
  const port = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`${source}: server.port must be an integer from 0 to 65535 (got ${JSON.stringify(value)})`);
  }
  return port;
}

function parseServer(value: unknown, source: string): ServerConfig {
  if (value === undefined || value === null) return { ...SERVER_DEFAULTS };
  if (!isRecord(value))
    throw new ConfigError(`${source}: server must be an object like { "port": 8081, "bindAddress": "127.0.0.1" }`);
  const extra = unknownKeys(value, SERVER_KEYS);
  if (extra.length > 0)
    throw new ConfigError(
      `${source}: ${extra.map((k) => `server.${k}`).join(', ')} ${extra.length === 1 ? 'is not a known setting' : 'are not known settings'} (known: ${SERVER_KEYS.join(', ')})`,
    );
  const bindAddress = value.bindAddress ?? SERVER_DEFAULTS.bindAddress;
  if (typeof bindAddress !== 'string' || bindAddress.trim() === '') {
    throw new ConfigError(`${source}: server.bindAddress must be a non-empty string such as "127.0.0.1" or "0.0.0.0"`);
  }
  return {
    port: value.port === undefined ? SERVER_DEFAULTS.port : parsePort(value.port, source),
    bindAddress: bindAddress.trim(),
  };
}

/**
 * Validates a loaded config: the `server` section here, `query` and `dataSources` through
 * `parseQueryConfig` of `@fw/query-core`. Unknown keys anywhere are refused.
 *
 * @example
 * const config = parseHostConfig(loadConfigFile('query-host.json'));
 * config.server.port; // 8081 unless set
 * @throws ConfigError whose message starts with the file and names the key to fix.
 */
export function parseHostConfig(loaded: LoadedConfig): HostConfig {
  const source = loaded.file ?? '<config object>';
  const data = loaded.data;
  if (!isRecord(data)) throw new ConfigError(`${source}: the config must be a JSON object with a "query" section`);
  const extra = unknownKeys(data, TOP_LEVEL_KEYS);
  if (extra.length > 0)
    throw new ConfigError(
      `${source}: unknown top-level key${extra.length === 1 ? '' : 's'} ${extra.map((k) => `'${k}'`).join(', ')} (known: ${TOP_LEVEL_KEYS.join(', ')})`,
    );
  const server = parseServer(data.server, source);
  const { query, dataSources } = parseQueryConfig(
    { query: data.query, ...(data.dataSources === undefined ? {} : { dataSources: data.dataSources }) },
    source,
  );
  return { server, query, dataSources, baseDir: loaded.baseDir, source };
}
