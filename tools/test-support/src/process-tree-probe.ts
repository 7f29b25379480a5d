/**
 * Probes of a process tree in the database, for tests that run trees in other processes: wait
 * until the root is finished, then read what the exactly-once assertions need.
 */
import type { Database } from '@fw/core';
import type { SpawnedScript } from './spawned-script';
import { countMatches } from './spawned-script';

export interface FinishedTree {
  stateId: string;
  output: unknown;
  numCompletedSubProcesses: number;
  /** Children by state, e.g. `{ PROCESSED: 12 }`. */
  childStates: Record<string, number>;
  /**
   * Child completions recorded as counted on the root (report rows of `fw_process_child_report`
   * and children marked `counted_inline`), and how many distinct children they name.
   */
  childReports: ChildCountRecords;
  /** How long the wait took. */
  millis: number;
}

async function rows<R>(database: Database, text: string, params: unknown[]): Promise<R[]> {
  return database.withSession((s) => s.query<R>(text, params));
}

/** The records of child completions counted on one parent; see {@link FinishedTree.childReports}. */
export interface ChildCountRecords {
  total: number;
  distinctChildren: number;
}

/**
 * Reads how the children of `parentId` were counted on it: a child's count is recorded by a report
 * row of `fw_process_child_report` (commands, HTTP reports) or by its own `counted_inline` mark (a
 * child counted in the transaction that finished it), never both. Exactly once means `total` and
 * `distinctChildren` both equal the number of finished children.
 */
export async function readChildCountRecords(database: Database, parentId: string): Promise<ChildCountRecords> {
  const [counted] = await rows<{ total: number; distinct_children: number }>(
    database,
    `select count(*)::int as total, count(distinct child_id)::int as distinct_children
       from (select child_id from fw_process_child_report where parent_id = $1
             union all
             select id from fw_process where parent_id = $1 and counted_inline) counted`,
    [parentId],
  );
  return { total: counted.total, distinctChildren: counted.distinct_children };
}

/** Polls until the root reaches PROCESSED or PROCESSED_WITH_ERRORS; fails after `timeoutMillis` with `context()` in the message. */
export async function waitForTreeFinished(
  database: Database,
  rootId: string,
  timeoutMillis: number,
  context: () => string = () => '',
): Promise<FinishedTree> {
  const started = Date.now();
  for (;;) {
    const [root] = await rows<{ state_id: string; output: unknown; num_completed_sub_processes: number }>(
      database,
      'select state_id, output, num_completed_sub_processes from fw_process where id = $1',
      [rootId],
    );
    if (root?.state_id === 'PROCESSED' || root?.state_id === 'PROCESSED_WITH_ERRORS') {
      const states = await rows<{ state_id: string; n: number }>(
        database,
        'select state_id, count(*)::int as n from fw_process where parent_id = $1 group by state_id',
        [rootId],
      );
      const childReports = await readChildCountRecords(database, rootId);
      return {
        stateId: root.state_id,
        output: root.output,
        numCompletedSubProcesses: root.num_completed_sub_processes,
        childStates: Object.fromEntries(states.map((s) => [s.state_id, s.n])),
        childReports,
        millis: Date.now() - started,
      };
    }
    if (Date.now() - started > timeoutMillis)
      throw new Error(
        `process ${rootId} did not finish within ${timeoutMillis} ms (state ${root?.state_id}); ${context()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits until a host printing `STEP-START n` / `STEP-END n` per leaf is in the middle of a tree:
 * at least `finished` leaves done and more started after them; returns the leaves running then.
 */
export async function waitMidTree(host: SpawnedScript, finished = 3, timeoutMillis = 30_000): Promise<number> {
  await host.waitFor(new RegExp(`(STEP-END[^\\n]*\\n[\\s\\S]*){${finished}}`), timeoutMillis);
  await host.waitFor(new RegExp(`(STEP-START[^\\n]*\\n[\\s\\S]*){${finished + 1}}`), timeoutMillis);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const output = host.output();
  return countMatches(output, /STEP-START/g) - countMatches(output, /STEP-END/g);
}

/** What {@link stopMidTree} saw. */
export interface MidTreeStop {
  /** The root the host printed as `ROOT <id>`. */
  rootId: string;
  /** Leaves running when SIGTERM was sent. */
  interrupted: number;
  exitCode: number | null;
  /** From SIGTERM to the process's exit. */
  stopMillis: number;
}

/** Waits for `ROOT <id>` and the middle of the tree, sends SIGTERM, and measures the exit. */
export async function stopMidTree(host: SpawnedScript): Promise<MidTreeStop> {
  const rootId = (await host.waitFor(/ROOT (\S+)/, 30_000))[1];
  const interrupted = await waitMidTree(host);
  const signalled = Date.now();
  host.child.kill('SIGTERM');
  const exitCode = await host.exited;
  return { rootId, interrupted, exitCode, stopMillis: Date.now() - signalled };
}
