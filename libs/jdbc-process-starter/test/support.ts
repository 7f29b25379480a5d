/** Helpers of the work-item tests. */
import type { WorkerDto, WorkerType } from '@fw/process-api';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { makeWorkItemStarter, workItemDb, type WorkItemStarter, type WorkItemTables } from '../src';

export function workerDto(overrides: Partial<WorkerDto> = {}): WorkerDto {
  return {
    processId: randomUUID(),
    processType: 'import',
    workerType: 'EXECUTOR' as WorkerType,
    tenant: 't1',
    triggerId: null,
    parentId: null,
    input: { n: 1 },
    config: { batchSize: '10' },
    ...overrides,
  };
}

/** Enqueues workers in one committed transaction, as the process manager would. */
export async function enqueue(
  database: { db: Kysely<unknown> },
  workers: WorkerDto[],
  starter: WorkItemStarter = makeWorkItemStarter(),
): Promise<void> {
  const callbacks: Array<() => void | Promise<void>> = [];
  await database.db.transaction().execute(async (trx) => {
    for (const worker of workers)
      await starter.startWorker(worker, { transaction: trx, afterCommit: (cb) => callbacks.push(cb) });
  });
  for (const cb of callbacks) await cb();
}

export interface ItemState {
  id: string;
  process_id: string;
  status: string;
  attempts: number;
  locked_by: string | null;
  claim_token: string | null;
  last_error: string | null;
  failure_reported_at: Date | null;
  claimed_at: Date | null;
}

/** The columns of an {@link ItemState}. */
const ITEM_STATE_COLUMNS = [
  'id',
  'process_id',
  'status',
  'attempts',
  'locked_by',
  'claim_token',
  'last_error',
  'failure_reported_at',
  'claimed_at',
] as const;

export async function itemOf(database: { db: Kysely<unknown> }, processId: string): Promise<ItemState> {
  return workItemDb(database)
    .selectFrom('fw_process_work_item')
    .select(ITEM_STATE_COLUMNS)
    .where('process_id', '=', processId)
    .executeTakeFirstOrThrow();
}

export async function itemsOf(database: { db: Kysely<unknown> }): Promise<ItemState[]> {
  return workItemDb(database).selectFrom('fw_process_work_item').select(ITEM_STATE_COLUMNS).execute();
}

export async function clearItems(database: { db: Kysely<unknown> }): Promise<void> {
  await workItemDb(database).deleteFrom('fw_process_work_item').execute();
}

/** Polls `check` until it is true (or fails after `timeoutMillis`). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMillis = 10_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

/** A promise to resolve by hand. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export type { WorkItemTables };
