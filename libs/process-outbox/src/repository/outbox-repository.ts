/**
 * Every statement of the outbox. Writes that finish an attempt are fenced by the claim token
 * (`where id = any($ids) and claim_token = $token and status = 'RUNNING'`), so a dispatcher whose
 * lease expired (and whose commands were claimed again) changes nothing: its acknowledgement is
 * refused. All times come from the database clock.
 *
 * @example
 * const repo = makeOutboxRepository();
 * await db.transaction().execute((trx) => repo.enqueue(trx, [{ commandType: 'PING', payload: {} }], { maxAttempts: 5 }));
 * const claimed = await repo.claim(db, { workerId: 'w1', limit: 100, leaseMillis: 30_000 });
 */
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
}

/** A claimed command as a dispatcher sees it. */
export interface OutboxCommand {
  id: string;
  commandType: string;
  groupKey: string | null;
  processId: string | null;
  tenant: string | null;
  payload: unknown;
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
  enqueue(db: Kysely<OutboxTables>, commands: readonly NewOutboxCommand[], options: { maxAttempts: number }): Promise<string[]>;
  /** Claims up to `limit` due or lease-expired commands in one statement (FOR UPDATE SKIP LOCKED). */
  claim(db: Kysely<OutboxTables>, options: OutboxClaimOptions): Promise<OutboxCommand[]>;
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
}

const INSERT_CHUNK = 1000;

interface CommandRow {
  id: string;
  command_type: string;
  group_key: string | null;
  process_id: string | null;
  tenant: string | null;
  payload: unknown;
  attempts: number | string;
  max_attempts: number | string;
  claim_token: string;
  last_error: string | null;
}

function toCommand(row: CommandRow): OutboxCommand {
  return {
    id: row.id,
    commandType: row.command_type,
    groupKey: row.group_key,
    processId: row.process_id,
    tenant: row.tenant,
    payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    claimToken: row.claim_token,
    lastError: row.last_error,
  };
}

function nowPlus(millis: number) {
  return sql<Date>`now() + (${Math.max(0, Math.round(millis))}::double precision * interval '1 millisecond')`;
}

function changed(result: { numUpdatedRows: bigint } | undefined): number {
  return result === undefined ? 0 : Number(result.numUpdatedRows);
}

/** Makes the repository (stateless; every call takes the Kysely handle to use). */
export function makeOutboxRepository(): OutboxRepository {
  const fenced = (db: Kysely<OutboxTables>, ids: readonly string[], claimToken: string) =>
    db
      .updateTable('fw_process_outbox')
      .where(sql<boolean>`id = any(${[...ids]}::uuid[])`)
      .where('claim_token', '=', claimToken)
      .where('status', '=', OutboxStatus.RUNNING);

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
          insert into fw_process_outbox (id, command_type, group_key, process_id, tenant, payload, max_attempts)
          select v.id, v.command_type, v.group_key, v.process_id, v.tenant, v.payload::jsonb, ${options.maxAttempts}::integer
            from unnest(${col((c) => c.id)}::uuid[], ${col((c) => c.commandType)}::text[], ${col((c) => c.groupKey ?? null)}::text[],
                        ${col((c) => c.processId ?? null)}::uuid[], ${col((c) => c.tenant ?? null)}::text[],
                        ${col((c) => JSON.stringify(c.payload ?? null))}::text[])
              as v(id, command_type, group_key, process_id, tenant, payload)`.execute(db);
      }
      return ids;
    },

    async claim(db, options) {
      const token = randomUUID();
      const types = options.commandTypes === undefined ? sql`true` : sql`command_type = any(${[...options.commandTypes]}::text[])`;
      const result = await sql<CommandRow>`
        update fw_process_outbox
           set status = 'RUNNING', locked_by = ${options.workerId}, locked_until = ${nowPlus(options.leaseMillis)},
               claim_token = ${token}::uuid, attempts = attempts + 1, updated_at = now()
         where id in (
           select id from fw_process_outbox
            where ((status = 'PENDING' and run_at <= now()) or (status = 'RUNNING' and locked_until < now()))
              and ${types}
            order by run_at
            for update skip locked
            limit ${options.limit})
        returning id, command_type, group_key, process_id, tenant, payload, attempts, max_attempts, claim_token, last_error`.execute(db);
      return result.rows.map(toCommand);
    },

    async complete(db, ids, claimToken) {
      if (ids.length === 0) return 0;
      const result = await fenced(db, ids, claimToken)
        .set({ status: OutboxStatus.DONE, locked_until: null, finished_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
        .executeTakeFirst();
      return changed(result);
    },

    async retry(db, id, claimToken, error, delayMillis) {
      const result = await fenced(db, [id], claimToken)
        .set({ status: OutboxStatus.PENDING, run_at: nowPlus(delayMillis), locked_by: null, locked_until: null, claim_token: null, last_error: error, updated_at: sql<Date>`now()` })
        .executeTakeFirst();
      return changed(result) === 1;
    },

    async markDead(db, id, claimToken, error) {
      const result = await fenced(db, [id], claimToken)
        .set({ status: OutboxStatus.DEAD, locked_until: null, last_error: error, finished_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
        .executeTakeFirst();
      return changed(result) === 1;
    },

    async release(db, ids, claimToken) {
      if (ids.length === 0) return 0;
      const result = await fenced(db, ids, claimToken)
        .set({
          status: OutboxStatus.PENDING,
          attempts: sql<number>`greatest(attempts - 1, 0)`,
          run_at: sql<Date>`now()`,
          locked_by: null,
          locked_until: null,
          claim_token: null,
          updated_at: sql<Date>`now()`,
        })
        .executeTakeFirst();
      return changed(result);
    },

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
