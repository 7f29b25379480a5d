/**
 * What the fan-out benchmark reads back from the database, in both modes: progress while it runs,
 * the root's state (how the coordinator of `--workers` learns the end), and the final verification
 * that every leaf was carried exactly once — a throughput figure only counts if it holds.
 *
 * @example
 * const progress = startFanoutProgress(database, rootId, performance.now(), console.log);
 * // … root done …
 * progress.stop();
 * const { rootState, outboxCommands } = await verifyFanout(database, rootId, 10_000);
 */
import type { Database } from '@fw/core';
import { sql } from 'kysely';

/** The root's state id (undefined when there is no such row). */
export async function readRootState(database: Database, rootId: string): Promise<string | undefined> {
  const { rows } = await sql<{ state_id: string }>`select state_id from fw_process where id = ${rootId}`.execute(
    database.db,
  );
  return rows[0]?.state_id;
}

/** Children the root has created and counted as finished so far (one row read through the primary key). */
export async function readRootCounts(database: Database, rootId: string): Promise<{ created: number; done: number }> {
  const { rows } = await sql<{
    created: number;
    done: number;
  }>`select num_sub_processes as created, num_completed_sub_processes as done from fw_process where id = ${rootId}`.execute(
    database.db,
  );
  return { created: Number(rows[0]?.created ?? 0), done: Number(rows[0]?.done ?? 0) };
}

/**
 * Prints `<s> s: <c> children created, <n> leaves done (<r> leaves/s)` every 2 s until `stop()`.
 * Read from the root's own counters (a leaf is counted in the transaction that finishes it), not by
 * counting leaf rows: at 100,000 leaves that count cost the database more than the leaves of 2 s.
 */
export function startFanoutProgress(
  database: Database,
  rootId: string,
  startedMillis: number,
  print: (line: string) => void,
): { stop(): void } {
  const timer = setInterval(() => {
    readRootCounts(database, rootId).then(
      ({ created, done }) => {
        const seconds = (performance.now() - startedMillis) / 1000;
        print(
          `  ${seconds.toFixed(1)} s: ${created} children created, ${done} leaves done (${(done / seconds).toFixed(0)} leaves/s)`,
        );
      },
      () => undefined,
    );
  }, 2000);
  return { stop: () => clearInterval(timer) };
}

/** Outbox commands not DONE yet (PENDING, RUNNING or DEAD). */
async function unfinishedOutboxCommands(database: Database): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from fw_process_outbox where status <> 'DONE'`.execute(
    database.db,
  );
  return Number(rows[0].n);
}

/** Runs `done` every `pollMillis` until it answers true. */
async function pollUntil(done: () => Promise<boolean>, pollMillis: number): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, pollMillis));
}

/**
 * Waits until every outbox command is DONE. The root turns PROCESSED in the transaction that also
 * writes its PROCESS_COMPLETED command; a coordinator that watches the state must let a dispatcher
 * deliver that command before it stops the worker processes.
 */
export async function waitForOutboxDrained(database: Database, timeoutMillis: number): Promise<void> {
  const deadline = performance.now() + timeoutMillis;
  await pollUntil(async () => {
    const left = await unfinishedOutboxCommands(database);
    if (left > 0 && performance.now() > deadline)
      throw new Error(`${left} outbox command(s) still not DONE ${timeoutMillis} ms after the root finished`);
    return left === 0;
  }, 50);
}

/** A `count(*)`: pg hands bigints over as text unless a type parser turns them into numbers. */
type Count = string | number;

interface FanoutCounts {
  root_state: string;
  num_sub: number;
  num_completed: number;
  leaves: Count;
  leaves_processed: Count;
  child_reports: Count;
  leaf_items: Count;
  leaves_with_items: Count;
  leaf_items_success_first_attempt: Count;
  root_items_success: Count;
  outbox_commands: Count;
  outbox_done: Count;
}

/**
 * Checks the end state of a fan-out of `leaves` and throws a message naming every violation: the
 * root PROCESSED having counted exactly `leaves` children (one record of the count each: a report
 * row or the leaf's `counted_inline` mark, never both); every leaf
 * PROCESSED with exactly one work item, SUCCESS at its first attempt (so no leaf ran twice, even
 * across worker processes); the root's splitter and aggregator items SUCCESS; every outbox command DONE.
 */
export async function verifyFanout(
  database: Database,
  rootId: string,
  leaves: number,
): Promise<{ rootState: string; outboxCommands: number }> {
  const { rows } = await sql<FanoutCounts>`
    select r.state_id as root_state, r.num_sub_processes as num_sub, r.num_completed_sub_processes as num_completed,
      (select count(*) from fw_process p where p.parent_id = r.id) as leaves,
      (select count(*) from fw_process p where p.parent_id = r.id and p.state_id = 'PROCESSED') as leaves_processed,
      (select count(*) from fw_process_child_report c where c.parent_id = r.id)
        + (select count(*) from fw_process p where p.parent_id = r.id and p.counted_inline) as child_reports,
      (select count(*) from fw_process_work_item w join fw_process p on p.id = w.process_id where p.parent_id = r.id) as leaf_items,
      (select count(distinct w.process_id) from fw_process_work_item w join fw_process p on p.id = w.process_id where p.parent_id = r.id) as leaves_with_items,
      (select count(*) from fw_process_work_item w join fw_process p on p.id = w.process_id
        where p.parent_id = r.id and w.status = 'SUCCESS' and w.attempts = 1) as leaf_items_success_first_attempt,
      (select count(*) from fw_process_work_item w where w.process_id = r.id and w.status = 'SUCCESS') as root_items_success,
      (select count(*) from fw_process_outbox) as outbox_commands,
      (select count(*) from fw_process_outbox where status = 'DONE') as outbox_done
    from fw_process r where r.id = ${rootId}`.execute(database.db);
  const c = rows[0];
  if (!c) throw new Error(`root ${rootId} not found`);
  const problems: string[] = [];
  const expect = (what: string, actual: Count, expected: Count) => {
    if (String(actual) !== String(expected)) problems.push(`${what}: ${actual} (expected ${expected})`);
  };
  expect('root state', c.root_state, 'PROCESSED');
  expect('root children', c.num_sub, leaves);
  expect('root counted', c.num_completed, leaves);
  expect('leaves', c.leaves, leaves);
  expect('leaves PROCESSED', c.leaves_processed, leaves);
  expect('child counts recorded (report rows + counted_inline marks)', c.child_reports, leaves);
  expect('leaf work items', c.leaf_items, leaves);
  expect('leaves with a work item', c.leaves_with_items, leaves);
  expect('leaf work items SUCCESS at the first attempt', c.leaf_items_success_first_attempt, leaves);
  expect('root work items SUCCESS (splitter, aggregator)', c.root_items_success, 2);
  expect('outbox commands DONE', c.outbox_done, c.outbox_commands);
  if (problems.length > 0) throw new Error(`fan-out verification failed: ${problems.join('; ')}`);
  return { rootState: c.root_state, outboxCommands: Number(c.outbox_commands) };
}

const FINAL_STATES: ReadonlySet<string | undefined> = new Set(['PROCESSED', 'PROCESSED_WITH_ERRORS']);

/**
 * Polls the root's state every `pollMillis` until it is final (PROCESSED or PROCESSED_WITH_ERRORS;
 * the verification tells the two apart). How the coordinator of `--workers` learns the end: the
 * completion listeners run in whichever worker process delivered the root's completion.
 */
export async function waitForRootFinished(database: Database, rootId: string, pollMillis: number): Promise<void> {
  await pollUntil(async () => FINAL_STATES.has(await readRootState(database, rootId)), pollMillis);
}
