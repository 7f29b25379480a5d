/**
 * What a dispatcher runs for each command type. A handler executes a group of claimed commands
 * inside ONE transaction that also acknowledges them (fenced by the claim token) and writes their
 * consumer receipts, so the effect, the receipt and the acknowledgement commit together or not at
 * all.
 *
 * @example
 * const ping: OutboxCommandHandler<MyTables> = {
 *   async execute(commands, { trx }) {
 *     await trx.insertInto('pings').values(commands.map((c) => ({ command_id: c.id }))).execute();
 *   },
 * };
 */
import { exponentialBackoff, type BackoffPolicy } from '@fw/leased-queue';
import type { Transaction } from 'kysely';
import type { OutboxCommand } from '../repository/outbox-repository';

export interface OutboxExecutionContext<DB> {
  /** The transaction of the acknowledgement and the receipts: write the effect with it. */
  readonly trx: Transaction<DB>;
  /** Work to run after the commit (never after a rollback); failures are logged. */
  afterCommit(callback: () => void | Promise<void>): void;
  /** The dispatcher's claimant identity. */
  readonly workerId: string;
}

export interface OutboxCommandHandler<DB> {
  /**
   * Executes commands of this handler's type (one group key when `grouped`) in `ctx.trx`. Only
   * commands without a receipt are given. Throwing rolls everything back: the attempt failed
   * (a group that fails is retried command by command).
   */
  execute(commands: readonly OutboxCommand[], ctx: OutboxExecutionContext<DB>): Promise<void>;
  /**
   * Called in the transaction that marks a command DEAD (after its last attempt), to record the
   * failure where it matters (for example on the process). Throwing rolls the DEAD mark back; the
   * command is then tried again as DEAD after its lease.
   */
  onDead?(command: OutboxCommand, error: string, ctx: OutboxExecutionContext<DB>): Promise<void>;
  /**
   * Work done for one command BEFORE its acknowledging transaction, outside any transaction and
   * while the claim's lease is kept alive: a delivery over the network (a broker publish with
   * confirms) that must succeed before the command may be marked DONE. Throwing fails this
   * command's attempt (retry with backoff, DEAD after the last, `onDead` then records it); the
   * others of its group go on. Delivery is at least once: a crash after it and before the
   * acknowledgement delivers again.
   */
  deliver?(command: OutboxCommand, ctx: { readonly workerId: string }): Promise<void>;
  /**
   * Runs before each group's transaction opens (for example to read configuration that needs a
   * connection of its own, which a single-connection database could not give inside the transaction).
   */
  prepare?(): Promise<void>;
  /** Execute the commands of one claim that share a group key together (default true). */
  readonly grouped?: boolean;
  /** Receipt consumer name (default the dispatcher's `consumer`). */
  readonly consumer?: string;
}

/** Delay before the next attempt, given the attempts made so far (1 after the first). */
export type OutboxBackoff = BackoffPolicy;

/** `min(base * 2^(attempts - 1), max)`; defaults base 1000 ms, max 300 000 ms (`exponentialBackoff` of `@fw/leased-queue`). */
export function outboxBackoff(options: { baseMillis?: number; maxMillis?: number } = {}): OutboxBackoff {
  return exponentialBackoff(options);
}
