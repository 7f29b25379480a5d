/**
 * The sessions of a scratch database: ending them (a run that ran out of time may have left a
 * statement that never finishes), and how long PostgreSQL takes to report a closed session's
 * statistics.
 *
 * @example
 * await endSessionsOf(serverUrl, scratch.name); // then the pools close without waiting
 */
import { withClient } from './scratch-database';

/** Ends every other session of database `name`. */
export async function endSessionsOf(serverUrl: string, name: string): Promise<void> {
  await withClient(serverUrl, (c) =>
    c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
      name,
    ]),
  );
}

/**
 * A session reports its statistics (`pg_stat_database`, `pg_stat_user_tables`) as it ends, which
 * can be a moment after its client has closed the socket: wait this long after closing the pools
 * before reading them.
 */
export const SESSIONS_REPORTED_MILLIS = 1100;

/** Waits {@link SESSIONS_REPORTED_MILLIS}. */
export function sessionsReported(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, SESSIONS_REPORTED_MILLIS));
}
