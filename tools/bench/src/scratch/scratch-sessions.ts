/**
 * The sessions of a scratch database: ending them (a run that ran out of time may have left a
 * statement that never finishes), and how long PostgreSQL takes to report a closed session's
 * statistics.
 *
 * @example
 * await endSessionsOf(serverUrl, scratch.name); // then the pools close without waiting
 */
import { withClient } from './scratch-database';

/** SQLSTATE of a session ended by `pg_terminate_backend` ("terminating connection due to administrator command"). */
const ADMIN_SHUTDOWN = '57P01';
let toleratingEndedSessions = false;

/**
 * From now on an error of a session ended on purpose, raised on a client whose owner (a peer's
 * library, caught mid-connect) has no handler for it, no longer ends this process; any other
 * uncaught error still does.
 */
function tolerateEndedSessions(): void {
  if (toleratingEndedSessions) return;
  toleratingEndedSessions = true;
  const onError = (error: unknown) => {
    if ((error as { code?: unknown } | undefined)?.code === ADMIN_SHUTDOWN) return;
    console.error(error);
    process.exit(1);
  };
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
}

/**
 * Ends every other session of database `name`. The clients of those sessions then fail; this
 * process keeps running even where their owner did not expect that (see `tolerateEndedSessions`).
 */
export async function endSessionsOf(serverUrl: string, name: string): Promise<void> {
  tolerateEndedSessions();
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
