import { mkdirSync } from 'node:fs';
import { Kysely } from 'kysely';
import pg from 'pg';
import { AsyncMutex } from './async-mutex';
import { type DatabaseLocation, parseDatabaseUrl, redactUrl } from './database-url';
import { ConfigError } from '../errors/fw-error';
import { PGLITE_QUERY_OPTIONS, PgliteDialect, type PgliteInstance, serializeParameter } from './pglite-dialect';
import { callbackQueryPool } from './callback-query-pool';
import { SessionTimeoutsDialect } from './session-timeouts-dialect';
import {
  capDefaultTimeouts,
  resolveSessionTimeouts,
  timeoutSettingsSql,
  type DatabasePooler,
  type ResolvedSessionTimeouts,
  type SessionTimeouts,
} from './session-settings';
import {
  INT8_OID,
  NUMERIC_OID,
  TIMESTAMP_OID,
  TIMESTAMPTZ_OID,
  parseInt8,
  parseNumeric,
  rememberingTimeParser,
} from './type-parsers';

export interface DatabaseOptions {
  /** `postgres://…`, `jdbc:postgresql://…`, `pglite:memory:` or `pglite:<folder>`. */
  url: string;
  username?: string;
  password?: string;
  /** Pool size (PostgreSQL only; PGlite is a single connection). Default 10. */
  maxConnections?: number;
  /** How long an idle pooled connection is kept. Default 30 000 ms. */
  idleTimeoutMillis?: number;
  /** How long to wait for a connection before failing. Default 10 000 ms. */
  connectionTimeoutMillis?: number;
  /**
   * Server-side `statement_timeout` for every statement; default none (the server's setting).
   * Refused with `pooler: 'transaction'`: set it on the role there.
   */
  statementTimeoutMillis?: number;
  /**
   * PostgreSQL ends a session that stays idle inside an open transaction this long
   * (`idle_in_transaction_session_timeout`), which rolls it back and frees its row locks. A process
   * frozen mid-transaction (SIGSTOP, a long GC pause, a VM freeze) then blocks the others for at most
   * this long instead of until it wakes. Default 15 000 ms (no fw component keeps a transaction
   * open across a network call or an author's handler); 0 turns it off. A worker host lowers the
   * default to its lease (see {@link Database.capTimeouts}).
   */
  idleInTransactionTimeoutMillis?: number;
  /**
   * Longest wait of a statement for a lock another session holds (`lock_timeout`); the statement
   * then fails (and fw's loops retry it) instead of waiting without bound. Default none (a worker
   * host sets its lease, see {@link Database.capTimeouts}).
   */
  lockTimeoutMillis?: number;
  /**
   * What sits between this process and PostgreSQL (default `none`). Say `transaction` behind a
   * transaction pooler (PgBouncer `pool_mode = transaction`): the timeouts are then applied to each
   * transaction only (never as session settings, which would stay on the pooler's server
   * connection), and features that need a session fall back or refuse (see the README's section
   * on poolers).
   */
  pooler?: DatabasePooler;
  /** Shown in `pg_stat_activity`. */
  applicationName?: string;
  /** Folder that a relative `pglite:` folder is resolved against. Default: the working directory. */
  baseDir?: string;
  /**
   * A PGlite instance of the caller's to use for a `pglite:memory:` URL instead of a new one: one
   * started from a `dumpDataDir()` archive (a database migrated once and copied many times), or
   * with extensions. The handle owns it from then on: `close()` closes it.
   *
   * @example
   * const pglite = new PGlite({ loadDataDir: archive });
   * const database = createDatabase({ url: 'pglite:memory:', pglite });
   */
  pglite?: PgliteInstance;
}

/** A dedicated connection for multi-statement scripts and session-level work (migrations, locks). */
export interface SqlSession {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs a script of several statements (simple protocol, no parameters). */
  exec(script: string): Promise<void>;
}

/**
 * A database handle: a Kysely instance for queries, a session for scripts, and close.
 *
 * @example
 * const database = createDatabase({ url: 'pglite:memory:' });
 * const { rows } = await sql`select 1 as one`.execute(database.db);
 * await database.close();
 */
export interface Database<DB = unknown> {
  readonly kind: DatabaseLocation['kind'];
  /** The URL without its password, for logs. */
  readonly displayUrl: string;
  readonly db: Kysely<DB>;
  /**
   * Runs one parameterised statement on a pooled connection (PGlite: its single connection, in
   * turn with Kysely's queries) and returns its rows, with the same type conversions as `db`.
   * It skips Kysely's compile and executor layers, which cost measurable time per statement on
   * hot read paths such as the named query service. Optional so that hand-built `Database`
   * objects (test doubles, wrappers) stay valid: callers fall back to `db.executeQuery`.
   *
   * @example
   * const rows = await database.query?.('select id from book where author_id = $1', [42]);
   */
  query?<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** What sits between the process and the server (`createDatabase`'s `pooler`); undefined counts as `none`. */
  readonly pooler?: DatabasePooler;
  /** The timeouts every transaction opened through `db` runs with (PostgreSQL); undefined on PGlite and hand-built handles. */
  readonly timeouts?: Readonly<SessionTimeouts>;
  /**
   * The same database (same connections, same `close`) whose transactions run with the timeouts
   * fw chose by default — `idle_in_transaction_session_timeout` and `lock_timeout` — lowered to at
   * most `maxMillis`; timeouts given explicitly to `createDatabase` stay as given. A worker host
   * caps them at its lease, so a host frozen inside a transaction holds its locks no longer than
   * its claims. Applies to transactions opened through the returned handle's `db` (the timeouts
   * of statements outside a transaction stay those of the connection). PGlite: the same handle.
   *
   * @example
   * const hostDatabase = database.capTimeouts?.(3000) ?? database;
   */
  capTimeouts?(maxMillis: number): Database<DB>;
}

// One remembering parser per pg parser of a time type (pg's own, or one the host registered with
// `pg.types.setTypeParser`, looked up per statement as before): parsing is synchronous, so no two
// fields ever interleave in one.
const rememberingParsers = new WeakMap<(text: string) => unknown, (text: string) => unknown>();
function timeParserOf(oid: number): (text: string) => unknown {
  const parse = pg.types.getTypeParser(oid, 'text') as (text: string) => unknown;
  let remembering = rememberingParsers.get(parse);
  if (remembering === undefined) rememberingParsers.set(parse, (remembering = rememberingTimeParser(parse)));
  return remembering;
}

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return parseInt8;
    if (oid === NUMERIC_OID) return parseNumeric;
    if (format !== 'binary' && (oid === TIMESTAMPTZ_OID || oid === TIMESTAMP_OID)) return timeParserOf(oid);
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
} as pg.CustomTypesConfig;

function createPostgres<DB>(connectionString: string, options: DatabaseOptions): Database<DB> {
  const pooler = options.pooler ?? 'none';
  const resolved = resolveSessionTimeouts(options);
  // No timeout travels as a startup parameter (a transaction pooler refuses them): a direct
  // connection or a session pooler gets them as session settings when it opens, and every
  // transaction sets them locally (only those that differ from the session's, see below).
  const sessionTimeouts: SessionTimeouts = pooler === 'transaction' ? {} : resolved.timeouts;
  const sessionSql = timeoutSettingsSql(sessionTimeouts, 'session');
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: options.idleTimeoutMillis ?? 30_000,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
    application_name: options.applicationName,
    types: typeParsers,
    // Awaited by the pool before the client is handed out (pg-pool's async hook; the type says
    // void), so the statement it was checked out for already runs with the session settings and
    // never queues behind them on a busy client; a failure fails that checkout.
    ...(sessionSql
      ? {
          onConnect: (async (client: pg.PoolClient) => {
            await client.query(sessionSql);
          }) as unknown as (client: pg.ClientBase) => void,
        }
      : {}),
  });
  // An idle client losing its server (restart, network) must not crash the process; the pool
  // drops it and opens a new one on the next checkout.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    // The same for a client that is checked out when its server connection dies: pg emits 'error'
    // on the client, which would crash the process without a listener. The query running on it
    // rejects with the error anyway, so nothing is swallowed.
    client.on('error', () => undefined);
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    // The dialect leaves the pool to us (several handles share it, see capTimeouts): Kysely
    // only ends a pool it has used anyway, and a handle that ran nothing but `query` or
    // `withSession` (a migration, a health probe) would keep its idle connections, whose
    // sockets keep the process alive until the idle timeout.
    if (!pool.ending) await pool.end();
  };
  const handle = (timeouts: ResolvedSessionTimeouts): Database<DB> => {
    const db = new Kysely<DB>({
      dialect: new SessionTimeoutsDialect(
        { pool: callbackQueryPool(pool) },
        timeoutSettingsSql(timeouts.timeouts, 'local', sessionTimeouts),
      ),
    });
    return {
      kind: 'postgres',
      displayUrl: redactUrl(options.url),
      db,
      pooler,
      timeouts: timeouts.timeouts,
      // pool.query checks a client out, runs the statement and releases it, like Kysely does.
      query: async <R>(text: string, params: readonly unknown[] = []) =>
        (await pool.query(text, params as unknown[])).rows as R[],
      async withSession(fn) {
        const client = await pool.connect();
        try {
          return await fn({
            query: async <R>(text: string, params: readonly unknown[] = []) =>
              (await client.query(text, [...params])).rows as R[],
            exec: async (script: string) => {
              await client.query(script);
            },
          });
        } finally {
          client.release();
        }
      },
      async close() {
        await db.destroy();
        await close();
      },
      capTimeouts: (maxMillis: number) => handle(capDefaultTimeouts(resolved, maxMillis)),
    };
  };
  return handle(resolved);
}

type PgliteConstructor = new (dataDir?: string) => PgliteInstance;

/**
 * PGlite is an optional peer of this package: loaded on the first `pglite:` URL, so hosts that
 * only use PostgreSQL (worker hosts) do not install its ~30 MB.
 */
function loadPglite(url: string): PgliteConstructor {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy, optional dependency
    return (require('@electric-sql/pglite') as { PGlite: PgliteConstructor }).PGlite;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    throw new ConfigError(
      `Database URL '${url}' needs the embedded database: install it with \`npm install @electric-sql/pglite\` (an optional peer of @fw/core), or use a postgres:// URL`,
    );
  }
}

/** The PGlite of a `pglite:` URL: the caller's instance (memory only, see {@link createDatabase}), or a new one. */
function openPglite(dataDir: string | undefined, options: DatabaseOptions): PgliteInstance {
  if (options.pglite !== undefined) return options.pglite;
  const PGlite = loadPglite(options.url);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  return new PGlite(dataDir);
}

function createPglite<DB>(dataDir: string | undefined, options: DatabaseOptions): Database<DB> {
  const pglite = openPglite(dataDir, options);
  const mutex = new AsyncMutex();
  const db = new Kysely<DB>({ dialect: new PgliteDialect(pglite, mutex) });
  let closed = false;
  const handle: Database<DB> = {
    kind: 'pglite',
    displayUrl: options.url,
    db,
    // The same mutex as the Kysely driver, so a statement never lands inside another caller's transaction.
    query: <R>(text: string, params: readonly unknown[] = []) =>
      mutex.run(async () => (await pglite.query<R>(text, params.map(serializeParameter), PGLITE_QUERY_OPTIONS)).rows),
    withSession(fn) {
      return mutex.run(() =>
        fn({
          query: async <R>(text: string, params: readonly unknown[] = []) =>
            (await pglite.query<R>(text, params.map(serializeParameter), PGLITE_QUERY_OPTIONS)).rows,
          exec: async (script: string) => {
            await pglite.exec(script);
          },
        }),
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      // Kysely only destroys a driver it has used: a handle that ran nothing but `query` or
      // `withSession` would leave PGlite open, and its timers keep the process alive.
      if (!pglite.closed) await pglite.close();
    },
    // One connection inside this process: no other process's transaction can wait on it.
    capTimeouts: () => handle,
  };
  return handle;
}

/** A PGlite instance of the caller's is the database of `pglite:memory:` only. */
function refuseCallersPgliteOutsideMemory(location: DatabaseLocation, url: string): void {
  if (location.kind === 'pglite' && location.dataDir === undefined) return;
  const where = location.kind === 'postgres' ? 'a PostgreSQL URL' : `the folder URL '${url}'`;
  throw new ConfigError(
    `Database option 'pglite' (a PGlite instance of the caller's) goes with 'pglite:memory:' only, not with ${where}`,
  );
}

/**
 * Opens a database from a URL: PostgreSQL through `pg` + Kysely, or embedded PGlite.
 * Nothing connects until the first query.
 */
export function createDatabase<DB = unknown>(options: DatabaseOptions): Database<DB> {
  const location = parseDatabaseUrl(options.url, options, options.baseDir);
  if (options.pglite !== undefined) refuseCallersPgliteOutsideMemory(location, options.url);
  return location.kind === 'postgres'
    ? createPostgres<DB>(location.connectionString, options)
    : createPglite<DB>(location.dataDir, options);
}
