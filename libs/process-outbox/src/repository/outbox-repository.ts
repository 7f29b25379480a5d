/**
 * Every statement of the outbox. The lease mechanics (claim, heartbeat, complete, retry, DEAD,
 * release, retention) are the
 * shared statements of `@fw/leased-queue` over `fw_process_outbox`, with one claim token per claim
 * (shared by the commands of the batch, so a group is fenced together); this file adds the writer's
 * insert and the consumer receipts. Writes that finish an attempt are fenced by the claim token
 * (`… where id = any($ids) and claim_token = <its token> and status = 'RUNNING'`), so a
 * dispatcher whose lease expired (and whose commands were claimed again) changes nothing: its
 * acknowledgement is refused. All times come from the database clock.
 *
 * @example
 * const repo = makeOutboxRepository();
 * await db.transaction().execute((trx) => repo.enqueue(trx, [{ commandType: 'PING', payload: {} }], { maxAttempts: 5 }));
 * const claimed = await repo.claim(db, { workerId: 'w1', limit: 100, leaseMillis: 30_000 });
 */
import { makeLeasedQueue, type Claim, type LeasedClaim } from '@fw/leased-queue';
import { sql, type Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { OutboxStatus, type OutboxTables } from '../schema/outbox-tables';

/** A command to write (in the caller's transaction). */
export interface NewOutboxCommand {
  /** Default: a random UUID (give one to refer to the command before it is written). */
  id?: string;
  commandType: string;
  /** Commands sharing a group key may be executed together in one transaction. */
  groupKey?: string | null;
  processId?: string | null;
  tenant?: string | null;
  payload: unknown;
  /**
   * The W3C trace context of the command's creation, `traceparent[,tracestate]`, for the
   * dispatcher's spans to continue; absent or null when no trace is active.
   */
  traceContext?: string | null;
}

/** A claimed command as a dispatcher sees it. */
export interface OutboxCommand {
  id: string;
  commandType: string;
  groupKey: string | null;
  processId: string | null;
  tenant: string | null;
  payload: unknown;
  /** The trace context stored with the command (`traceparent[,tracestate]`), absent or null without one. */
  traceContext?: string | null;
  /** Attempts made, this one included. */
  attempts: number;
  maxAttempts: number;
  /** Fences every write of this attempt (shared by the commands of one claim). */
  claimToken: string;
  lastError: string | null;
}

export interface OutboxClaimOptions {
  workerId: string;
  limit: number;
  leaseMillis: number;
  /** Only these command types (default all). */
  commandTypes?: readonly string[];
}

export interface OutboxRepository {
  /** Writes the commands with ONE multi-row insert per 1000 rows; returns their ids. */
  enqueue(
    db: Kysely<OutboxTables>,
    commands: readonly NewOutboxCommand[],
    options: { maxAttempts: number },
  ): Promise<string[]>;
  /** Claims up to `limit` due or lease-expired commands in one statement (FOR UPDATE SKIP LOCKED). */
  claim(db: Kysely<OutboxTables>, options: OutboxClaimOptions): Promise<OutboxCommand[]>;
  /** Extends the leases of claimed commands in ONE statement, fenced; the ids renewed (a lost claim is absent). */
  renew(db: Kysely<OutboxTables>, commands: readonly Claim[], leaseMillis: number): Promise<Set<string>>;
  /** RUNNING → DONE for every id, fenced; the number of rows changed. */
  complete(db: Kysely<OutboxTables>, ids: readonly string[], claimToken: string): Promise<number>;
  /** RUNNING → PENDING after `delayMillis`, fenced; false when the claim was lost. */
  retry(db: Kysely<OutboxTables>, id: string, claimToken: string, error: string, delayMillis: number): Promise<boolean>;
  /** RUNNING → DEAD, fenced; false when the claim was lost. */
  markDead(db: Kysely<OutboxTables>, id: string, claimToken: string, error: string): Promise<boolean>;
  /** RUNNING → PENDING now, the attempt not counted (graceful stop), fenced. */
  release(db: Kysely<OutboxTables>, ids: readonly string[], claimToken: string): Promise<number>;
  /**
   * Inserts the receipts `(consumer, id)`; returns the ids whose receipt is new. A command whose
   * receipt already exists was executed before and must have no second effect.
   */
  receive(db: Kysely<OutboxTables>, consumer: string, ids: readonly string[]): Promise<Set<string>>;
  /**
   * Deletes up to `limit` DONE commands finished more than `olderThanMillis` ago, with the receipts
   * `consumers` wrote for them, in ONE statement (rows another dispatcher is deleting are skipped);
   * the number of commands deleted. DEAD commands are kept.
   */
  purgeDone(
    db: Kysely<OutboxTables>,
    options: { olderThanMillis: number; limit: number; commandTypes?: readonly string[]; consumers: readonly string[] },
  ): Promise<number>;
}

const INSERT_CHUNK = 1000;

/** The outbox columns a claim returns besides the lease fields. */
interface CommandFields {
  command_type: string;
  group_key: string | null;
  process_id: string | null;
  tenant: string | null;
  payload: unknown;
  trace_context: string | null;
}

/** `fw_process_outbox` as a leased queue: one token per claim, oldest due first, by command type. */
const queue = makeLeasedQueue<CommandFields>({
  table: 'fw_process_outbox',
  statuses: {
    pending: OutboxStatus.PENDING,
    running: OutboxStatus.RUNNING,
    done: OutboxStatus.DONE,
    dead: OutboxStatus.DEAD,
  },
  returning: ['command_type', 'group_key', 'process_id', 'tenant', 'payload', 'trace_context'],
  partitionColumn: 'command_type',
  tokens: 'per-claim',
});

function toCommand(claim: LeasedClaim<CommandFields>): OutboxCommand {
  const row = claim.row;
  return {
    id: claim.id,
    commandType: row.command_type,
    groupKey: row.group_key,
    processId: row.process_id,
    tenant: row.tenant,
    payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload,
    traceContext: row.trace_context ?? null,
    attempts: claim.attempts,
    maxAttempts: claim.maxAttempts,
    claimToken: claim.claimToken,
    lastError: claim.lastError,
  };
}

/** The commands of one claim as the claims the shared statements fence. */
const claimsOf = (ids: readonly string[], claimToken: string): Claim[] => ids.map((id) => ({ id, claimToken }));

/** Makes the repository (stateless; every call takes the Kysely handle to use). */
export function makeOutboxRepository(): OutboxRepository {
  return {
    async enqueue(db, commands, options) {
      const ids: string[] = [];
      for (let i = 0; i < commands.length; i += INSERT_CHUNK) {
        const chunk = commands.slice(i, i + INSERT_CHUNK).map((c) => ({ ...c, id: c.id ?? randomUUID() }));
        if (chunk.length === 0) continue;
        for (const c of chunk) ids.push(c.id);
        const col = <T>(f: (c: NewOutboxCommand & { id: string }) => T): T[] => chunk.map(f);
        // One array parameter per column (unnest) instead of one per value: fewer parameters to
        // build, send and parse, and one statement text for every batch size.
        await sql`
          insert into fw_process_outbox (id, command_type, group_key, process_id, tenant, payload, max_attempts, trace_context)
          select v.id, v.command_type, v.group_key, v.process_id, v.tenant, v.payload::jsonb, ${options.maxAttempts}::integer, v.trace_context
            from unnest(${col((c) => c.id)}::uuid[], ${col((c) => c.commandType)}::text[], ${col((c) => c.groupKey ?? null)}::text[],
                        ${col((c) => c.processId ?? null)}::uuid[], ${col((c) => c.tenant ?? null)}::text[],
                        ${col((c) => JSON.stringify(c.payload ?? null))}::text[], ${col((c) => c.traceContext ?? null)}::text[])
              as v(id, command_type, group_key, process_id, tenant, payload, trace_context)`.execute(db);
      }
      return ids;
    },

    async claim(db, options) {
      return (
        await queue.claim(db, {
          workerId: options.workerId,
          limit: options.limit,
          leaseMillis: options.leaseMillis,
          partitions: options.commandTypes,
        })
      ).map(toCommand);
    },

    renew: (db, commands, leaseMillis) => queue.renew(db, commands, leaseMillis),

    complete: async (db, ids, claimToken) => (await queue.complete(db, claimsOf(ids, claimToken))).size,

    retry: async (db, id, claimToken, error, delayMillis) =>
      (await queue.retry(db, claimsOf([id], claimToken), error, delayMillis)).size === 1,

    markDead: async (db, id, claimToken, error) => (await queue.dead(db, claimsOf([id], claimToken), error)).size === 1,

    release: async (db, ids, claimToken) => (await queue.release(db, claimsOf(ids, claimToken))).size,

    purgeDone: (db, options) =>
      queue.purgeFinished(db, {
        olderThanMillis: options.olderThanMillis,
        limit: options.limit,
        partitions: options.commandTypes,
        // By consumer, so the receipts' primary key (consumer, command_id) finds them.
        dependents: [
          {
            table: 'fw_process_receipt',
            column: 'command_id',
            scope: { column: 'consumer', values: options.consumers },
          },
        ],
      }),

    async receive(db, consumer, ids) {
      const fresh = new Set<string>();
      if (ids.length === 0) return fresh;
      const result = await sql<{ command_id: string }>`
        insert into fw_process_receipt (consumer, command_id)
        select ${consumer}, unnest(${[...ids]}::uuid[])
        on conflict do nothing
        returning command_id`.execute(db);
      for (const row of result.rows) fresh.add(row.command_id);
      return fresh;
    },
  };
}
