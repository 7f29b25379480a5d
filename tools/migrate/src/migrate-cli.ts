import {
  createDatabase,
  type DatabasePooler,
  isConfigError,
  migrateDatabase,
  type Migration,
  type MigrationResult,
  orderMigrations,
  parseDatabasePooler,
  readMigrationFolder,
  redactUrl,
} from '@fw/core';
import { jdbcProcessStarterMigrations } from '@fw/jdbc-process-starter';
import { processManagementMigrations } from '@fw/process-management';
import { processOutboxMigrations } from '@fw/process-outbox';
import { processServiceMigrations } from '@fw/process-service';
import { queryCoreMigrations } from '@fw/query-core';
import { triggerMigrations } from '@fw/trigger';
import { workflowMigrations } from '@fw/workflow';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The framework's whole schema: the migrations every fw library ships for its own tables, composed
 * through the libraries' entry points, in the global number order they apply in.
 *
 * @throws ConfigError when two libraries ship migrations with the same number.
 */
export function fwMigrations(): Migration[] {
  return orderMigrations([
    ...queryCoreMigrations(),
    ...processServiceMigrations(),
    ...jdbcProcessStarterMigrations(),
    ...processOutboxMigrations(),
    ...triggerMigrations(),
    ...workflowMigrations(),
    ...processManagementMigrations(),
  ]);
}

/**
 * The framework's migrations of this release, as {@link fwMigrations}. Kept for code written when
 * the schema was one folder of this package: the same names and texts, so a database migrated
 * either way is up to date for the other.
 */
export function readFwMigrations(): Migration[] {
  return fwMigrations();
}

/** This package's version (`fw-migrate --version`). */
export const MIGRATE_VERSION: string = (
  JSON.parse(readFileSync(path.resolve(__dirname, '../package.json'), 'utf8')) as { version: string }
).version;

export const MIGRATE_USAGE = `usage: fw-migrate --database-url URL [--username U --password P] [--dir FOLDER] [--pooler transaction]
       (in the workspace checkout: npm run migrate -- …)

  --database-url  postgres://host:port/db, jdbc:postgresql://host:port/db, pglite:memory: or pglite:<folder>
  --username      database user (overrides the one in the URL)
  --password      database password (overrides the one in the URL)
  --dir           folder of *.sql migrations (default: the framework's schema, the migrations
                  of every fw library)
  --pooler        none (default), session, or transaction when the URL is a transaction pooler
                  (PgBouncer pool_mode = transaction): then no session setting is left on its connections
  --help          this text
  --version       the version of @fw/migrate (and so of the schema it carries)`;

export interface MigrateOptions {
  databaseUrl: string;
  username?: string;
  password?: string;
  /** Folder of `*.sql` migrations to apply instead of the framework's schema ({@link fwMigrations}). */
  dir?: string;
  pooler?: DatabasePooler;
}

/** Raised for bad command-line arguments; the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const FLAGS = {
  '--database-url': 'databaseUrl',
  '--username': 'username',
  '--password': 'password',
  '--dir': 'dir',
  '--pooler': 'pooler',
} as const;
type Flag = keyof typeof FLAGS;

function isFlag(value: string): value is Flag {
  return Object.prototype.hasOwnProperty.call(FLAGS, value);
}

/**
 * Parses `--flag value` and `--flag=value` arguments.
 *
 * @example
 * parseMigrateArgs(['--database-url', 'pglite:./.data/db']); // { databaseUrl: 'pglite:./.data/db' }
 * @throws UsageError for unknown flags, missing values or a missing --database-url.
 */
export function parseMigrateArgs(argv: readonly string[], cwd = process.cwd()): MigrateOptions {
  const values: Partial<Record<(typeof FLAGS)[Flag], string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!isFlag(name)) throw new UsageError(`unknown argument '${arg}'`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--')))
      throw new UsageError(`${name} needs a value`);
    values[FLAGS[name]] = value;
  }
  if (!values.databaseUrl) throw new UsageError('--database-url is required');
  return {
    databaseUrl: values.databaseUrl,
    username: values.username,
    password: values.password,
    ...(values.dir === undefined ? {} : { dir: path.resolve(cwd, values.dir) }),
    ...(values.pooler === undefined ? {} : { pooler: parsePooler(values.pooler) }),
  };
}

function parsePooler(raw: string): DatabasePooler {
  try {
    return parseDatabasePooler(raw, '--pooler');
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/**
 * Applies the migrations of `options.dir`, or the framework's schema without it, and reports each
 * file through `print`.
 */
export async function runMigrate(options: MigrateOptions, print: (line: string) => void): Promise<MigrationResult> {
  const migrations = options.dir === undefined ? fwMigrations() : readMigrationFolder(options.dir);
  const database = createDatabase({
    url: options.databaseUrl,
    username: options.username,
    password: options.password,
    maxConnections: 1,
    applicationName: 'fw-migrate',
    pooler: options.pooler,
  });
  try {
    const result = await migrateDatabase(database, migrations);
    for (const name of result.alreadyApplied) print(`already applied  ${name}`);
    for (const name of result.applied) print(`applied          ${name}`);
    print(`${database.displayUrl}: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied`);
    return result;
  } finally {
    await database.close();
  }
}

/**
 * The whole CLI: returns the exit code (0 done, 1 migration or connection failure, 2 bad arguments).
 * Output goes through `out`/`err` so tests can capture it.
 */
export async function migrateMain(
  argv: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    out(MIGRATE_USAGE);
    return 0;
  }
  if (argv.includes('--version')) {
    out(`fw-migrate ${MIGRATE_VERSION}`);
    return 0;
  }
  let options: MigrateOptions;
  try {
    options = parseMigrateArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`migrate: ${e.message}`);
      err(MIGRATE_USAGE);
      return 2;
    }
    throw e;
  }
  try {
    await runMigrate(options, out);
    return 0;
  } catch (e) {
    if (isConfigError(e)) {
      err(`migrate: ${e.message}`);
    } else {
      const message = e instanceof Error ? e.message : String(e);
      const code =
        typeof e === 'object' && e !== null && 'code' in e ? ` (${String((e as { code: unknown }).code)})` : '';
      err(`migrate: cannot migrate ${redactUrl(options.databaseUrl)}: ${message || 'connection failed'}${code}`);
    }
    return 1;
  }
}
