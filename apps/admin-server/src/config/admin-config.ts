/**
 * The admin server's settings, read from the command line and the environment:
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `PROCESS_ADMIN_PORT` | 8080 | port (0: any free port) |
 * | `PROCESS_ADMIN_BIND_ADDRESS` | 127.0.0.1 | address to listen on |
 * | `PROCESS_DATABASE_URL`, `_USERNAME`, `_PASSWORD` | dev: PGlite under `./.data/` | required outside dev (user and password may be empty) |
 * | `PROCESS_DATABASE_POOLER` | `none` | `transaction` behind a transaction pooler (PgBouncer `pool_mode = transaction`), `session` behind a session pooler |
 * | `PROCESS_MANAGEMENT_API_KEY` | dev: generated, stored in `./.data/` | at least 32 characters |
 * | `PROCESS_MANAGEMENT_API_KEYS`, `_KEY_ROLE`, `_KEY_TENANTS`, `_JWKS_URL`/`_JWKS_FILE`, `_JWT_*` | — | more keys, their role and tenants, bearer tokens (`access-config.ts`) |
 * | `--profile dev` or `FW_PROFILE=dev` | production | dev profile |
 * | `PROCESS_HISTORY_RETENTION` | `P30D` | how long a successful finished tree is kept (ISO-8601 duration) |
 * | `PROCESS_FAILED_RETENTION` | `P90D` | how long a failed finished tree is kept |
 * | `PROCESS_HISTORY_RETENTION_TENANTS` | — | per tenant: `acme=P7D/P30D,beta=/P365D` (succeeded/failed, either may be empty) |
 * | `PROCESS_AUDIT_RETENTION` | the failed retention | how long the administration API's audit trail is kept |
 * | `PROCESS_HISTORY_SWEEP_INTERVAL` | `PT1M` | time between two sweeps of the history sweeper (`off`: no sweeper in this server) |
 * | `PROCESS_HISTORY_SWEEP_DUTY_CYCLE` | `0.25` | share of the time the sweeper spends removing: after each removal transaction it pauses in proportion (`1`: no pause) |
 * | `FW_COUNT_EXACT_LIMIT` | 100000 | a list total reads at most this many rows; beyond, the planner's estimate (`totalElementsEstimated: true`) |
 * | `FW_METRICS_TOKEN` | — | `GET /metrics` needs `Authorization: Bearer <it>`; unset: 404 in production, open in dev |
 * | `FW_ADMIN_OIDC_ISSUER`, `_CLIENT_ID`, `_SCOPE`, `_CONNECT_ORIGINS` | — | the dashboard's single sign-on at an identity provider (`sign-in-config.ts`) |
 *
 * @example
 * const config = readAdminServerConfig(['--profile', 'dev'], process.env, process.cwd());
 * // { profile: 'dev', port: 8080, bindAddress: '127.0.0.1', database: { url: 'pglite:/…/.data/process-db' }, dataDir: '/…/.data', apiKey: undefined }
 */
import { parseProxyAllowedOrigins } from '@fw/admin-ui';
import { ConfigError, FwError, parseDatabasePooler, type DatabasePooler } from '@fw/core';
import {
  assertManagementKey,
  DEFAULT_COUNT_EXACT_LIMIT,
  parseIsoDuration,
  retentionSettingsFromEnv,
  sweepDutyCycleFromEnv,
  type RetentionSettings,
} from '@fw/process-management';
import * as path from 'node:path';
import { accessConfigFromEnv, type AdminAccessConfig } from './access-config';
import { signInConfigFromEnv, type DashboardSignInConfig } from './sign-in-config';

export type AdminProfile = 'dev' | 'production';

export interface AdminServerConfig {
  profile: AdminProfile;
  port: number;
  bindAddress: string;
  database: { url: string; username?: string; password?: string; pooler?: DatabasePooler };
  /** The key, or undefined in dev when none is set (one is then generated and stored in `dataDir`). */
  apiKey: string | undefined;
  /** Dev profile: the folder holding the embedded database and the generated key. */
  dataDir?: string;
  /** Folder relative database paths are resolved against. */
  baseDir: string;
  /** `FW_INFO_ACCESS_KEY`: when set, `/info`, `/service-info`, `/health-check` and `/openapi.json` need `X-Fw-Info-Key`. */
  infoAccessKey?: string;
  /** `FW_MCP_ENABLED`: serve `/mcp` (behind the key). Default: dev profile yes, production no. */
  mcpEnabled?: boolean;
  /** `FW_SERVICE_REGISTRY_URL` (and `FW_SERVICE_BASE_URL`, default the listening URL): register this host's services there. */
  serviceRegistry?: { url: string; baseUrl?: string };
  /** `PROCESS_ADMIN_DASHBOARD` (`on` by default, `off` to not serve the process dashboard at `/`). */
  dashboardEnabled?: boolean;
  /** `FW_ADMIN_UI_PROXY_ORIGINS` (comma-separated origins): other hosts the admin UI at /fw/admin may read through this one. */
  adminUiProxyOrigins?: string[];
  /**
   * Retention of finished trees, the sweeper's interval (undefined: no sweeper) and its duty cycle.
   * Default: env defaults, every minute, removing at most a quarter of the time.
   */
  history?: { retention: RetentionSettings; sweepIntervalMillis: number | undefined; sweepDutyCycle?: number };
  /** `FW_COUNT_EXACT_LIMIT`: a list total reads at most this many rows, else it is an estimate (default 100,000). */
  countExactLimit?: number;
  /** More keys, the role and tenants of the keys, bearer tokens. Default: the key alone, admin over every tenant. */
  access?: AdminAccessConfig;
  /** `FW_METRICS_TOKEN`: the bearer token `GET /metrics` needs. Unset: `/metrics` is 404 in production, open in dev. */
  metricsToken?: string;
  /** `FW_ADMIN_OIDC_*`: the dashboard's single sign-on at an identity provider. Default: none. */
  signIn?: DashboardSignInConfig;
}

/** Raised for bad command-line arguments (exit 2 with the usage). */
/** A command line the host does not take (printed with the usage, exit code 2). */
export class UsageError extends FwError {
  constructor(message: string) {
    super({ code: 400, subErrorCode: 'ADMIN_USAGE', description: message, expose: false });
    this.name = 'UsageError';
  }
}

export const ADMIN_SERVER_USAGE = `usage: fw-admin-server [--profile dev]
       (in the workspace checkout: npm run admin-server -- …; npm start is --profile dev)

  --profile dev   local development: embedded database under ./.data/, schema applied, key
                  generated, example workers. Also FW_PROFILE=dev.
  --help          this text
  --version       the version of @fw/admin-server

Environment: PROCESS_ADMIN_PORT (8080), PROCESS_ADMIN_BIND_ADDRESS (127.0.0.1),
PROCESS_DATABASE_URL, PROCESS_DATABASE_USERNAME, PROCESS_DATABASE_PASSWORD (required outside dev),
PROCESS_DATABASE_POOLER (none; transaction behind PgBouncer's transaction pooling),
PROCESS_MANAGEMENT_API_KEY (at least 32 characters; required outside dev), PROCESS_MANAGEMENT_API_KEYS
(more keys, comma-separated), PROCESS_MANAGEMENT_KEY_ROLE (admin), PROCESS_MANAGEMENT_KEY_TENANTS (*),
PROCESS_MANAGEMENT_JWKS_URL or _JWKS_FILE with PROCESS_MANAGEMENT_JWT_ISSUER and _JWT_AUDIENCE (bearer tokens),
PROCESS_ADMIN_DASHBOARD (on: the process dashboard at /; off), FW_ADMIN_OIDC_ISSUER with
FW_ADMIN_OIDC_CLIENT_ID (the dashboard's single sign-on; _SCOPE openid, _CONNECT_ORIGINS),
PROCESS_HISTORY_RETENTION (P30D), PROCESS_FAILED_RETENTION (P90D), PROCESS_HISTORY_RETENTION_TENANTS,
PROCESS_AUDIT_RETENTION (the failed retention),
PROCESS_HISTORY_SWEEP_INTERVAL (PT1M; off), PROCESS_HISTORY_SWEEP_DUTY_CYCLE (0.25),
FW_COUNT_EXACT_LIMIT (100000).`;

/** What the command line asks for: run with a profile, or print the usage or the version. */
export interface AdminArgs {
  help: boolean;
  version: boolean;
  profile: AdminProfile;
}

/** `--profile X` / `--profile=X` / `--help` / `--version`; FW_PROFILE when no flag. */
export function parseAdminArgs(argv: readonly string[], env: NodeJS.ProcessEnv): AdminArgs {
  let profile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return { help: true, version: false, profile: 'production' };
    if (arg === '--version') return { help: false, version: true, profile: 'production' };
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
  if (profile === 'dev') return { help: false, version: false, profile: 'dev' };
  if (profile === 'production' || profile === 'prod') return { help: false, version: false, profile: 'production' };
  throw new UsageError(`unknown profile '${profile}' (use dev, or no profile for production)`);
}

function portOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8080;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535)
    throw new ConfigError(`PROCESS_ADMIN_PORT must be a port number from 0 to 65535, got '${raw}'`);
  return Number(raw);
}

/**
 * A variable that must be set. Empty counts as set (an empty password is normal with trust, peer or
 * `.pgpass` authentication; an empty user lets the URL's or libpq's default apply), so "not set"
 * means unset; `nonEmpty` refuses '' with its own message.
 */
function required(env: NodeJS.ProcessEnv, name: string, nonEmpty = false): string {
  const value = env[name];
  if (value === undefined) {
    throw new ConfigError(
      `${name} is not set: outside the dev profile the admin server needs PROCESS_DATABASE_URL, PROCESS_DATABASE_USERNAME and PROCESS_DATABASE_PASSWORD (or start with --profile dev)`,
    );
  }
  if (nonEmpty && value.trim() === '')
    throw new ConfigError(`${name} is empty: give a PostgreSQL URL (postgres://host:port/db)`);
  return value;
}

/**
 * Builds the config for `profile` from the environment.
 * @throws ConfigError naming the variable to fix.
 */
export function adminConfigFromEnv(profile: AdminProfile, env: NodeJS.ProcessEnv, cwd: string): AdminServerConfig {
  const infoAccessKey = infoKeyOf(env.FW_INFO_ACCESS_KEY);
  const registryUrl = httpUrlOf(env.FW_SERVICE_REGISTRY_URL, 'FW_SERVICE_REGISTRY_URL');
  const baseUrl = httpUrlOf(env.FW_SERVICE_BASE_URL, 'FW_SERVICE_BASE_URL');
  const proxyOrigins = originsOf(env.FW_ADMIN_UI_PROXY_ORIGINS, 'FW_ADMIN_UI_PROXY_ORIGINS');
  const metricsToken = env.FW_METRICS_TOKEN?.trim() || undefined;
  const access = accessConfigFromEnv(env, cwd);
  return {
    ...configFor(profile, env, cwd),
    ...(infoAccessKey === undefined ? {} : { infoAccessKey }),
    mcpEnabled: booleanOf(env.FW_MCP_ENABLED, 'FW_MCP_ENABLED', profile === 'dev'),
    dashboardEnabled: dashboardOf(env.PROCESS_ADMIN_DASHBOARD),
    ...(registryUrl === undefined
      ? {}
      : { serviceRegistry: { url: registryUrl, ...(baseUrl === undefined ? {} : { baseUrl }) } }),
    ...(proxyOrigins.length === 0 ? {} : { adminUiProxyOrigins: proxyOrigins }),
    history: {
      retention: retentionSettingsFromEnv(env),
      sweepIntervalMillis: sweepIntervalOf(env.PROCESS_HISTORY_SWEEP_INTERVAL),
      sweepDutyCycle: sweepDutyCycleFromEnv(env),
    },
    countExactLimit: countLimitOf(env.FW_COUNT_EXACT_LIMIT),
    access,
    ...(metricsToken === undefined ? {} : { metricsToken }),
    signIn: signInConfigFromEnv(env, access.jwt !== undefined),
  };
}

/** `PROCESS_HISTORY_SWEEP_INTERVAL`: an ISO-8601 duration (default one minute), or `off`. */
function sweepIntervalOf(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return 60_000;
  if (raw.trim().toLowerCase() === 'off') return undefined;
  return parseIsoDuration(raw, 'PROCESS_HISTORY_SWEEP_INTERVAL');
}

/** `FW_COUNT_EXACT_LIMIT`: a whole number of at least 1 (default 100,000). */
function countLimitOf(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_COUNT_EXACT_LIMIT;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1)
    throw new ConfigError(`FW_COUNT_EXACT_LIMIT must be a whole number of at least 1, got '${raw}'`);
  return Number(raw);
}

/** `FW_ADMIN_UI_PROXY_ORIGINS`, as a ConfigError when an entry is no origin. */
function originsOf(raw: string | undefined, name: string): string[] {
  try {
    return parseProxyAllowedOrigins(raw, name);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

/** `PROCESS_ADMIN_DASHBOARD`: on (default) or off; true/false too. */
function dashboardOf(raw: string | undefined): boolean {
  if (raw === undefined || raw === '') return true;
  const value = raw.trim().toLowerCase();
  if (value === 'on' || value === 'true') return true;
  if (value === 'off' || value === 'false') return false;
  throw new ConfigError(`PROCESS_ADMIN_DASHBOARD must be on or off, got '${raw}'`);
}

/** `true`/`false`; unset or empty: the default. */
function booleanOf(raw: string | undefined, name: string, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new ConfigError(`${name} must be true or false, got '${raw}'`);
}

/** An http(s) URL, or undefined when unset or empty. */
function httpUrlOf(raw: string | undefined, name: string): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^https?:\/\/[^\s]+$/.test(raw))
    throw new ConfigError(`${name} must be an http:// or https:// URL, got '${raw}'`);
  return raw.replace(/\/+$/, '');
}

/** `FW_INFO_ACCESS_KEY`: unset or empty means the info endpoints are open. */
function infoKeyOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 32)
    throw new ConfigError(
      `FW_INFO_ACCESS_KEY is too short (${raw.length} characters): give at least 32, or leave it unset to keep /info, /service-info and /health-check open`,
    );
  return raw;
}

function configFor(profile: AdminProfile, env: NodeJS.ProcessEnv, cwd: string): AdminServerConfig {
  const port = portOf(env.PROCESS_ADMIN_PORT);
  const bindAddress = env.PROCESS_ADMIN_BIND_ADDRESS || '127.0.0.1';
  // Without the single key, the first of the rotation list is the server's own (printed, used by the examples).
  const rawKey =
    env.PROCESS_MANAGEMENT_API_KEY ||
    env.PROCESS_MANAGEMENT_API_KEYS?.split(',')
      .map((k) => k.trim())
      .find((k) => k !== '') ||
    undefined;
  const pooler = env.PROCESS_DATABASE_POOLER
    ? parseDatabasePooler(env.PROCESS_DATABASE_POOLER, 'PROCESS_DATABASE_POOLER')
    : undefined;
  if (profile === 'dev') {
    const dataDir = path.resolve(cwd, '.data');
    const url = env.PROCESS_DATABASE_URL || `pglite:${path.join(dataDir, 'process-db')}`;
    const apiKey = rawKey === undefined ? undefined : assertManagementKey(rawKey, 'PROCESS_MANAGEMENT_API_KEY');
    return {
      profile,
      port,
      bindAddress,
      database: {
        url,
        username: env.PROCESS_DATABASE_USERNAME || undefined,
        password: env.PROCESS_DATABASE_PASSWORD || undefined,
        pooler,
      },
      apiKey,
      dataDir,
      baseDir: cwd,
    };
  }
  const database = {
    url: required(env, 'PROCESS_DATABASE_URL', true),
    // '' → undefined: the user and password of the URL (or libpq's defaults) apply.
    username: required(env, 'PROCESS_DATABASE_USERNAME') || undefined,
    password: required(env, 'PROCESS_DATABASE_PASSWORD') || undefined,
    pooler,
  };
  if (database.url.startsWith('pglite:'))
    throw new ConfigError(
      'PROCESS_DATABASE_URL must be a PostgreSQL URL (postgres://host:port/db) outside the dev profile',
    );
  const apiKey = assertManagementKey(rawKey, 'PROCESS_MANAGEMENT_API_KEY');
  return { profile, port, bindAddress, database, apiKey, baseDir: cwd };
}
