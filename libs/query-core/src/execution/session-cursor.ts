import type { Database, SqlSession } from '@fw/core';
import { beginWithSettings } from './statement-runner';

type Row = Record<string, unknown>;

/** How a {@link SessionCursor} is opened. */
export interface SessionCursorOptions {
  database: Database;
  sql: string;
  values: readonly unknown[];
  /** Statement timeout of each FETCH (and of the DECLARE), ms. */
  timeoutMillis?: number;
  /**
   * Longest time the transaction may stay idle between two fetches (the reader's client is slow);
   * the server ends the session after it, as a backstop for a reader that never closes.
   */
  idleMillis: number;
}

const CURSOR_NAME = 'fw_stream';
/** A running FETCH is cancelled again this often until it ends (at most {@link CANCEL_ATTEMPTS} times). */
const CANCEL_RETRY_MILLIS = 50;
const CANCEL_ATTEMPTS = 100;

/**
 * A server-side cursor on a connection of its own: `BEGIN; DECLARE … NO SCROLL CURSOR FOR <sql>`,
 * then `FETCH FORWARD n` per batch, `ROLLBACK` at the end. Works the same on PostgreSQL and PGlite
 * through the `Database` session port, and behind a transaction pooler (everything happens inside
 * one transaction). Nothing is read ahead: the next batch is fetched only when asked for, which is
 * the stream's backpressure. On PGlite the session holds the embedded database (a single
 * connection) until the cursor closes.
 */
export class SessionCursor {
  private fetching: Promise<Row[]> | undefined;
  private cancelSent = false;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly database: Database,
    private readonly session: SqlSession,
    private readonly release: () => Promise<void>,
    private readonly backendPid: number | undefined,
  ) {}

  /**
   * Takes a connection, starts the transaction and declares the cursor.
   *
   * @throws the database error of the DECLARE (the connection is released first).
   */
  static async open(options: SessionCursorOptions): Promise<SessionCursor> {
    const { session, release } = await holdSession(options.database);
    try {
      await session.exec(
        beginWithSettings({
          statement_timeout: options.timeoutMillis,
          idle_in_transaction_session_timeout: options.idleMillis,
        }),
      );
      const pid =
        options.database.kind === 'postgres'
          ? Number((await session.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]?.pid)
          : undefined;
      await session.query(`DECLARE ${CURSOR_NAME} NO SCROLL CURSOR FOR ${options.sql}`, options.values);
      return new SessionCursor(options.database, session, release, pid);
    } catch (err) {
      await session.exec('ROLLBACK').catch(() => undefined);
      await release();
      throw err;
    }
  }

  /** The next `count` rows (fewer at the end, none after it). */
  async fetch(count: number): Promise<Row[]> {
    if (this.closing) throw new Error('the cursor is closed');
    if (!Number.isSafeInteger(count) || count < 1) throw new Error(`invalid fetch size ${count}`);
    this.fetching = this.session.query<Row>(`FETCH FORWARD ${count} FROM ${CURSOR_NAME}`);
    try {
      // The rows move to an array of our own and the driver's is left empty. node-postgres's
      // result object, once its promise has settled, stays referenced from dead objects in V8's
      // old generation, which young collections treat as live: through its rows array every row
      // of every batch was promoted, and old space grew by all of them until a full collection
      // (V8 waits until it is about four times the live heap: ~90 MB more RSS over a million
      // rows). Emptied, the rows die young.
      return (await this.fetching).splice(0);
    } finally {
      this.fetching = undefined;
    }
  }

  /**
   * Ends the cursor and gives the connection back. A FETCH still running (the reader went away
   * mid-batch) is cancelled on the server first (PostgreSQL: `pg_cancel_backend` from another
   * pooled connection), so the connection is free in the time of one round trip, not of the batch.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const running = this.fetching;
    if (running) await this.cancel(running);
    // A cancel that lands after the FETCH finished hits the ROLLBACK instead: run it again.
    for (let attempt = 0; attempt < (this.cancelSent ? 3 : 1); attempt++) {
      try {
        await this.session.exec('ROLLBACK');
        break;
      } catch {
        // retried above; the release below happens anyway
      }
    }
    await this.release();
  }

  /**
   * Cancels a running FETCH until it ends. A cancel that reaches the server before the FETCH has
   * started is ignored there (the backend is still idle), so it is sent again every 50 ms while
   * the FETCH runs — always before the connection is given back, so it can only hit this stream.
   */
  private async cancel(running: Promise<Row[]>): Promise<void> {
    let settled = false;
    const done = running.then(
      () => (settled = true),
      () => (settled = true),
    );
    if (this.backendPid !== undefined && this.database.query) {
      for (let attempt = 0; !settled && attempt < CANCEL_ATTEMPTS; attempt++) {
        this.cancelSent = true;
        await this.database.query('select pg_cancel_backend($1)', [this.backendPid]).catch(() => undefined);
        await Promise.race([done, new Promise((resolve) => setTimeout(resolve, CANCEL_RETRY_MILLIS))]);
      }
    }
    await done;
  }
}

/** A session of the pool held open until `release` is called (the port only lends one for a callback). */
async function holdSession(database: Database): Promise<{ session: SqlSession; release: () => Promise<void> }> {
  let handBack!: () => void;
  const handedBack = new Promise<void>((resolve) => (handBack = resolve));
  let lent!: (session: SqlSession) => void;
  const lending = new Promise<SqlSession>((resolve) => (lent = resolve));
  const held = database.withSession(async (session) => {
    lent(session);
    await handedBack;
  });
  const session = await Promise.race([
    lending,
    held.then(() => Promise.reject(new Error('the session ended before it was used'))),
  ]);
  return {
    session,
    release: async () => {
      handBack();
      await held.catch(() => undefined);
    },
  };
}
