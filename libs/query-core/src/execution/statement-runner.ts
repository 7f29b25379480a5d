import type { Database, SqlSession } from '@fw/core';
import { CompiledQuery } from 'kysely';

type Row = Record<string, unknown>;

/** SQLSTATE of a cancelled statement (a statement timeout or a cancel request). */
const QUERY_CANCELED = '57014';

/**
 * True when a database error is PostgreSQL's "canceling statement due to statement timeout"
 * (a statement cancelled on request has the same SQLSTATE but another message).
 */
export function isStatementTimeout(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    e.code === QUERY_CANCELED &&
    typeof e.message === 'string' &&
    e.message.includes('statement timeout')
  );
}

/**
 * `BEGIN` plus the transaction-local settings, as one simple-protocol round trip. `SET LOCAL`
 * ends with the transaction, so the connection goes back to the pool with its own settings —
 * also behind a transaction pooler, where a session-level `SET` would leak to other clients.
 */
export function beginWithSettings(settings: Readonly<Record<string, number | undefined>>): string {
  const sets = Object.entries(settings)
    .filter((entry): entry is [string, number] => entry[1] !== undefined)
    .map(([name, value]) => {
      if (!/^[a-z_]+$/.test(name) || !Number.isSafeInteger(value) || value < 0)
        throw new Error(`invalid setting ${name}=${value}`);
      return `SET LOCAL ${name} = ${value}`;
    });
  return ['BEGIN', ...sets].join('; ');
}

/** Runs `fn` in a transaction on `session`; rolls back when it fails (read-only work: commit and rollback are alike). */
export async function inTransaction<T>(session: SqlSession, begin: string, fn: () => Promise<T>): Promise<T> {
  await session.exec(begin);
  let result: T;
  try {
    result = await fn();
  } catch (err) {
    await session.exec('ROLLBACK').catch(() => undefined);
    throw err;
  }
  await session.exec('COMMIT');
  return result;
}

/**
 * Runs one statement. Without a time limit: through the database's pool port (one round trip, no
 * Kysely layers), else through Kysely. With one: on a dedicated connection inside
 * `BEGIN; SET LOCAL statement_timeout = n` … `COMMIT`.
 *
 * @example
 * const rows = await runStatement(database, 'select * from book where id = $1', [7], 2000);
 */
export async function runStatement(
  database: Database,
  sql: string,
  values: readonly unknown[],
  timeoutMillis?: number,
): Promise<Row[]> {
  if (timeoutMillis !== undefined) {
    return database.withSession((session) =>
      inTransaction(session, beginWithSettings({ statement_timeout: timeoutMillis }), () =>
        session.query<Row>(sql, values),
      ),
    );
  }
  if (database.query) return database.query<Row>(sql, values);
  const result = await database.db.executeQuery<Row>(CompiledQuery.raw(sql, [...values]));
  return result.rows;
}
