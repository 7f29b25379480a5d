/**
 * The admin server's settings, read from the command line and the environment:
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `PROCESS_ADMIN_PORT` | 8080 | port (0: any free port) |
 * | `PROCESS_ADMIN_BIND_ADDRESS` | 127.0.0.1 | address to listen on |
 * | `PROCESS_DATABASE_URL`, `_USERNAME`, `_PASSWORD` | dev: PGlite under `./.data/` | required outside dev |
 * | `PROCESS_MANAGEMENT_API_KEY` | dev: generated, stored in `./.data/` | at least 32 characters |
 * | `--profile dev` or `FW_PROFILE=dev` | production | dev profile |
 *
 * @example
 * const config = readAdminServerConfig(['--profile', 'dev'], process.env, process.cwd());
 * // { profile: 'dev', port: 8080, bindAddress: '127.0.0.1', database: { url: 'pglite:/…/.data/process-db' }, dataDir: '/…/.data', apiKey: undefined }
 */
import { ConfigError } from '@fw/core';
import { assertManagementKey } from '@fw/process-management';
import * as path from 'node:path';

export type AdminProfile = 'dev' | 'production';

export interface AdminServerConfig {
  profile: AdminProfile;
  port: number;
  bindAddress: string;
  database: { url: string; username?: string; password?: string };
  /** The key, or undefined in dev when none is set (one is then generated and stored in `dataDir`). */
  apiKey: string | undefined;
  /** Dev profile: the folder holding the embedded database and the generated key. */
  dataDir?: string;
  /** Folder relative database paths are resolved against. */
  baseDir: string;
}

/** Raised for bad command-line arguments (exit 2 with the usage). */
export class UsageError extends Error {}

export const ADMIN_SERVER_USAGE = `usage: npm run admin-server -- [--profile dev]

  --profile dev   local development: embedded database under ./.data/, schema applied, key
                  generated, example workers and the dashboard at /. Also FW_PROFILE=dev.

Environment: PROCESS_ADMIN_PORT (8080), PROCESS_ADMIN_BIND_ADDRESS (127.0.0.1),
PROCESS_DATABASE_URL, PROCESS_DATABASE_USERNAME, PROCESS_DATABASE_PASSWORD (required outside dev),
PROCESS_MANAGEMENT_API_KEY (at least 32 characters; required outside dev).`;

/** `--profile X` / `--profile=X` / `--help`; FW_PROFILE when no flag. */
export function parseAdminArgs(argv: readonly string[], env: NodeJS.ProcessEnv): { help: boolean; profile: AdminProfile } {
  let profile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return { help: true, profile: 'production' };
    if (arg === '--profile') {
      profile = argv[++i];
      if (profile === undefined || profile.startsWith('--')) throw new UsageError('--profile needs a value (dev)');
    } else if (arg.startsWith('--profile=')) {
      profile = arg.slice('--profile='.length);
    } else {
      throw new UsageError(`unknown argument '${arg}'`);
    }
  }
  profile ??= env.FW_PROFILE || 'production';
  if (profile === 'dev') return { help: false, profile: 'dev' };
  if (profile === 'production' || profile === 'prod') return { help: false, profile: 'production' };
  throw new UsageError(`unknown profile '${profile}' (use dev, or no profile for production)`);
}

function portOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8080;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ConfigError(`PROCESS_ADMIN_PORT must be a port number from 0 to 65535, got '${raw}'`);
  return Number(raw);
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (value === undefined || value === '') {
    throw new ConfigError(`${name} is not set: outside the dev profile the admin server needs PROCESS_DATABASE_URL, PROCESS_DATABASE_USERNAME and PROCESS_DATABASE_PASSWORD (or start with --profile dev)`);
  }
  return value;
}

/**
 * Builds the config for `profile` from the environment.
 * @throws ConfigError naming the variable to fix.
 */
export function adminConfigFromEnv(profile: AdminProfile, env: NodeJS.ProcessEnv, cwd: string): AdminServerConfig {
  const port = portOf(env.PROCESS_ADMIN_PORT);
  const bindAddress = env.PROCESS_ADMIN_BIND_ADDRESS || '127.0.0.1';
  const rawKey = env.PROCESS_MANAGEMENT_API_KEY || undefined;
  if (profile === 'dev') {
    const dataDir = path.resolve(cwd, '.data');
    const url = env.PROCESS_DATABASE_URL || `pglite:${path.join(dataDir, 'process-db')}`;
    const apiKey = rawKey === undefined ? undefined : assertManagementKey(rawKey, 'PROCESS_MANAGEMENT_API_KEY');
    return {
      profile,
      port,
      bindAddress,
      database: { url, username: env.PROCESS_DATABASE_USERNAME || undefined, password: env.PROCESS_DATABASE_PASSWORD || undefined },
      apiKey,
      dataDir,
      baseDir: cwd,
    };
  }
  const database = {
    url: required(env, 'PROCESS_DATABASE_URL'),
    username: required(env, 'PROCESS_DATABASE_USERNAME'),
    password: required(env, 'PROCESS_DATABASE_PASSWORD'),
  };
  if (database.url.startsWith('pglite:')) throw new ConfigError('PROCESS_DATABASE_URL must be a PostgreSQL URL (postgres://host:port/db) outside the dev profile');
  const apiKey = assertManagementKey(rawKey, 'PROCESS_MANAGEMENT_API_KEY');
  return { profile, port, bindAddress, database, apiKey, baseDir: cwd };
}
