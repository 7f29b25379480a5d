/**
 * The writing side of the outbox: commands are inserted with the caller's transaction, so they
 * exist exactly when the state change that caused them committed.
 *
 * @example
 * const writer = makeOutboxWriter({ maxAttempts: 5 });
 * await db.transaction().execute(async (trx) => {
 *   await trx.updateTable('orders').set({ state: 'PAID' }).where('id', '=', id).execute();
 *   await writer.enqueue(trx, [{ commandType: 'SEND_RECEIPT', processId: id, payload: { id } }]);
 * });
 * dispatcher.wake();
 */
import type { Kysely } from 'kysely';
import { outboxDb } from '../schema/outbox-tables';
import { makeOutboxRepository, type NewOutboxCommand } from './outbox-repository';

export interface OutboxWriter {
  /** Inserts the commands with `transaction` (one multi-row insert); returns their ids. */
  enqueue<DB>(transaction: Kysely<DB>, commands: readonly NewOutboxCommand[]): Promise<string[]>;
}

/** Makes a writer; `maxAttempts` (default 5) is stored on each command. */
export function makeOutboxWriter(options: { maxAttempts?: number } = {}): OutboxWriter {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 5));
  const repo = makeOutboxRepository();
  return {
    enqueue: (transaction, commands) => repo.enqueue(outboxDb(transaction), commands, { maxAttempts }),
  };
}
