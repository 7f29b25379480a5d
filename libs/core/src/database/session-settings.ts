/**
 * The server-side timeouts of a {@link Database} and where they are applied. They never travel as
 * startup parameters: a transaction pooler such as PgBouncer (default settings) refuses those with
 * `unsupported startup parameter (08P01)`. Instead:
 *
 * - every transaction fw opens through Kysely starts with `SET LOCAL` of the timeouts (in the same
 *   round trip as its `begin`), which holds behind any pooler, since a transaction keeps its server
 *   connection until it ends;
 * - on a direct connection or a session pooler, each new connection also gets them with a
 *   session-level `SET`, so statements outside a transaction are bounded too. Behind a transaction
 *   pooler that `SET` would stay on the pooler's server connection and reach other clients, so it
 *   is not sent there.
 */
import { ConfigError } from '../errors/fw-error';

/**
 * What sits between the process and PostgreSQL:
 * - `none` (default): a direct connection;
 * - `session`: a pooler that gives each client connection one server connection for its whole
 *   life (PgBouncer `pool_mode = session`): everything works as on a direct connection;
 * - `transaction`: a pooler that hands the server connection back after every transaction
 *   (PgBouncer `pool_mode = transaction`): session state does not last from one transaction to the
 *   next, so LISTEN, session advisory locks and session settings do not work.
 */
export type DatabasePooler = 'none' | 'session' | 'transaction';

/** The values {@link DatabasePooler} takes. */
export const DATABASE_POOLERS: readonly DatabasePooler[] = ['none', 'session', 'transaction'];

/** Default `idle_in_transaction_session_timeout` of a {@link Database}. */
export const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MILLIS = 15_000;

/** Server-side timeouts in milliseconds; `undefined` leaves the server's (role, database) setting alone, 0 turns one off. */
export interface SessionTimeouts {
  /** `statement_timeout`. */
  statementMillis?: number;
  /** `idle_in_transaction_session_timeout`. */
  idleInTransactionMillis?: number;
  /** `lock_timeout`. */
  lockMillis?: number;
}

/** The timeouts asked for when the database was created, and which of them were given explicitly. */
export interface ResolvedSessionTimeouts {
  timeouts: SessionTimeouts;
  /** Set by the caller (as opposed to fw's defaults): {@link capDefaultTimeouts} leaves these alone. */
  explicit: { idleInTransaction: boolean; lock: boolean };
}

const GUC_OF: Record<keyof SessionTimeouts, string> = {
  statementMillis: 'statement_timeout',
  idleInTransactionMillis: 'idle_in_transaction_session_timeout',
  lockMillis: 'lock_timeout',
};

function checkMillis(value: number | undefined, option: string): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 0)
    throw new ConfigError(
      `${option} must be a whole number of milliseconds ≥ 0 (0 turns it off), got ${String(value)}`,
    );
}

/**
 * Checks and resolves the timeout options of `createDatabase`.
 *
 * @throws ConfigError for a negative or fractional value, or for `statementTimeoutMillis` behind a
 *   transaction pooler (it could only bound statements inside transactions there).
 */
export function resolveSessionTimeouts(options: {
  statementTimeoutMillis?: number;
  idleInTransactionTimeoutMillis?: number;
  lockTimeoutMillis?: number;
  pooler?: DatabasePooler;
}): ResolvedSessionTimeouts {
  checkMillis(options.statementTimeoutMillis, 'statementTimeoutMillis');
  checkMillis(options.idleInTransactionTimeoutMillis, 'idleInTransactionTimeoutMillis');
  checkMillis(options.lockTimeoutMillis, 'lockTimeoutMillis');
  const pooler = options.pooler ?? 'none';
  if (!DATABASE_POOLERS.includes(pooler))
    throw new ConfigError(`pooler must be one of ${DATABASE_POOLERS.join(', ')}, got '${String(pooler)}'`);
  if (pooler === 'transaction' && options.statementTimeoutMillis !== undefined) {
    throw new ConfigError(
      "statementTimeoutMillis cannot bound every statement behind a transaction pooler (pooler: 'transaction'): set it on the role or the database instead " +
        `(ALTER ROLE <user> SET statement_timeout = '${options.statementTimeoutMillis}ms') and leave statementTimeoutMillis unset`,
    );
  }
  return {
    timeouts: {
      statementMillis: options.statementTimeoutMillis,
      idleInTransactionMillis: options.idleInTransactionTimeoutMillis ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MILLIS,
      lockMillis: options.lockTimeoutMillis,
    },
    explicit: {
      idleInTransaction: options.idleInTransactionTimeoutMillis !== undefined,
      lock: options.lockTimeoutMillis !== undefined,
    },
  };
}

/**
 * The timeouts with each one fw chose by default (not given explicitly) lowered to at most
 * `maxMillis`; a default that is off or unset becomes `maxMillis`.
 */
export function capDefaultTimeouts(resolved: ResolvedSessionTimeouts, maxMillis: number): ResolvedSessionTimeouts {
  if (!(Number.isInteger(maxMillis) && maxMillis > 0))
    throw new RangeError(`the timeout cap must be a positive whole number of milliseconds, got ${String(maxMillis)}`);
  const cap = (value: number | undefined) =>
    value === undefined || value === 0 ? maxMillis : Math.min(value, maxMillis);
  const { timeouts, explicit } = resolved;
  return {
    timeouts: {
      ...timeouts,
      idleInTransactionMillis: explicit.idleInTransaction
        ? timeouts.idleInTransactionMillis
        : cap(timeouts.idleInTransactionMillis),
      lockMillis: explicit.lock ? timeouts.lockMillis : cap(timeouts.lockMillis),
    },
    explicit,
  };
}

/**
 * `set [local] <guc> = <ms>` for every timeout that has a value and differs from `unless` (the
 * values the connection already has), joined by `;`; `''` when there is nothing to set.
 */
export function timeoutSettingsSql(
  timeouts: SessionTimeouts,
  scope: 'session' | 'local',
  unless: SessionTimeouts = {},
): string {
  const statements: string[] = [];
  for (const key of Object.keys(GUC_OF) as (keyof SessionTimeouts)[]) {
    const value = timeouts[key];
    if (value === undefined || value === unless[key]) continue;
    statements.push(`set ${scope === 'local' ? 'local ' : ''}${GUC_OF[key]} = ${Math.trunc(value)}`);
  }
  return statements.join('; ');
}

/**
 * Reads a pooler setting from configuration (an environment variable, a flag): empty or unset is
 * `none`.
 *
 * @example
 * const pooler = parseDatabasePooler(process.env.PROCESS_DATABASE_POOLER, 'PROCESS_DATABASE_POOLER');
 * @throws ConfigError naming `source` and the accepted values for anything else.
 */
export function parseDatabasePooler(raw: string | undefined, source: string): DatabasePooler {
  if (raw === undefined || raw.trim() === '') return 'none';
  const value = raw.trim().toLowerCase();
  if ((DATABASE_POOLERS as readonly string[]).includes(value)) return value as DatabasePooler;
  throw new ConfigError(
    `${source} must be one of ${DATABASE_POOLERS.join(', ')} (transaction: behind PgBouncer with pool_mode = transaction), got '${raw}'`,
  );
}
