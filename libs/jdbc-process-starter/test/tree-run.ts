/**
 * One run of the fault and pooler suites: real worker processes (the durable worker host of the
 * README, `fixtures/worker-host.ts`) run a `sum` tree, a fault is injected once about a third of
 * the leaves are done, and the run must end with the tree complete, every child counted exactly
 * once, nothing left PENDING, RUNNING or DEAD. Meanwhile the children finished are sampled, to
 * tell how long the tree stood still after the fault began.
 */
import type { Database } from '@fw/core';
import { countMatches, spawnScript, waitForTreeFinished, type SpawnedScript } from '@fw/test-support';
import { sql } from 'kysely';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const FIXTURE = path.join(__dirname, 'fixtures', 'worker-host.ts');

export interface TreeRunOptions {
  /** The URL the worker hosts connect to (the server, or a pooler in front of it). */
  hostUrl: string;
  /** A handle straight on the server, for the checks. */
  control: Database;
  /** Worker processes; the first creates the root. */
  hosts: number;
  leaves: readonly number[];
  stepMillis: number;
  /** The hosts' `recoverySeconds`: their leases, and so their session timeouts. */
  recoverySeconds: number;
  /** Further environment of the hosts (`FW_FIXTURE_*`). */
  env?: Record<string, string>;
}

export interface TreeRunFigures {
  /** How long `fault` took. */
  faultMillis: number;
  /** From the start of the fault to the tree's completion. */
  finishedAfterFaultBeganMillis: number;
  /** From the end of the fault to the tree's completion. */
  recoveryMillis: number;
  /** Longest time, from the start of the fault to the tree's completion, in which no child finished. */
  stoodStillMillis: number;
  /** Each host's state when the tree was complete (`T`: stopped), from /proc. */
  hostStatesAtFinish: string[];
}

/** The state letter of a process (`R`, `S`, `T` stopped, …) from /proc. */
export function processState(pid: number | undefined): string {
  if (pid === undefined) return '?';
  try {
    // `pid (comm) S …`: the state follows the last parenthesis (comm may hold blanks).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return 'gone';
  }
}

/**
 * Freezes `host` (SIGSTOP) the moment one of its sessions is seen idle inside a transaction (the
 * host between two statements of a transaction, holding its row locks), or after 5 s regardless.
 */
export async function freezeMidTransaction(control: Database, host: SpawnedScript): Promise<void> {
  const name = `worker-host-${host.child.pid}`;
  for (const until = Date.now() + 5000; Date.now() < until;) {
    const rows = await control.withSession((s) =>
      s.query(`select 1 from pg_stat_activity where application_name = $1 and state = 'idle in transaction'`, [name]),
    );
    if (rows.length > 0) break;
  }
  host.child.kill('SIGSTOP');
}

/** Samples how many children of `rootId` are done, and keeps the longest stretch without change. */
function watchProgress(control: Database, rootId: string): { stop(): Promise<number> } {
  let running = true;
  let last = -1;
  let lastChange = Date.now();
  let longest = 0;
  const loop = (async () => {
    while (running) {
      try {
        const rows = await control.withSession((s) =>
          s.query<{ n: number }>(
            `select count(*)::int as n from fw_process where parent_id = $1 and state_id = 'PROCESSED'`,
            [rootId],
          ),
        );
        const now = Date.now();
        if (rows[0].n !== last) {
          if (last >= 0) longest = Math.max(longest, now - lastChange);
          last = rows[0].n;
          lastChange = now;
        }
      } catch {
        // A fault may cut this connection too; the next sample reconnects.
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return Math.max(longest, Date.now() - lastChange);
    },
  };
}

/** Starts the hosts, injects `fault` mid-tree, checks the finished tree; returns the figures. */
export async function runTreeWithFault(
  options: TreeRunOptions,
  fault: (hosts: SpawnedScript[]) => Promise<void>,
): Promise<TreeRunFigures> {
  const { control, leaves } = options;
  const total = leaves.reduce((a, b) => a + b, 0);
  const env = { FW_FIXTURE_RECOVERY_SECONDS: String(options.recoverySeconds), ...options.env };
  const hosts = Array.from({ length: options.hosts }, (_, i) =>
    spawnScript(FIXTURE, [options.hostUrl, String(options.stepMillis), '500', ...(i === 0 ? [leaves.join(',')] : [])], {
      env,
      killAfterMillis: 120_000,
    }),
  );
  try {
    const rootId = (await hosts[0].waitFor(/ROOT (\S+)/, 60_000))[1];
    const ended = () => hosts.reduce((n, h) => n + countMatches(h.output(), /STEP-END/g), 0);
    for (const until = Date.now() + 60_000; ended() < leaves.length / 3;) {
      if (Date.now() > until) throw new Error(`the tree did not get going: ${hosts[0].output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const progress = watchProgress(control, rootId);
    const faultBegan = Date.now();
    await fault(hosts);
    const faultEnded = Date.now();
    // The test's own pool may hold connections the fault cut: the first statements may fail.
    for (let tries = 0; ; tries++) {
      try {
        await sql`select 1`.execute(control.db);
        break;
      } catch (err) {
        if (tries > 50) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const tree = await waitForTreeFinished(control, rootId, 60_000, () =>
      hosts.map((h) => h.output().slice(-2000)).join('\n---\n'),
    );
    const finishedAt = Date.now();
    const hostStatesAtFinish = hosts.map((h) => processState(h.child.pid));
    const stoodStillMillis = await progress.stop();
    expect(tree).toMatchObject({
      stateId: 'PROCESSED',
      output: { total, parts: leaves.length },
      numCompletedSubProcesses: leaves.length,
    });
    expect(tree.childStates).toEqual({ PROCESSED: leaves.length });
    expect(tree.childReports).toEqual({ total: leaves.length, distinctChildren: leaves.length });
    // Nothing left behind: every work item SUCCESS, every outbox command DONE (none DEAD). The root
    // is PROCESSED when its last transaction commits; the acknowledgements of the item and command
    // that ran it follow in statements of their own (and a command retried after a fault waits out
    // its backoff), so the rows get a few seconds to settle before they must all be done.
    const itemStates = async () =>
      (
        await sql<{
          status: string;
          n: number;
        }>`select status, count(*)::int as n from fw_process_work_item where process_id in (select id from fw_process where id = ${rootId} or parent_id = ${rootId}) group by status`.execute(
          control.db,
        )
      ).rows;
    const commandStates = async () =>
      (
        await sql<{
          status: string;
        }>`select distinct status from fw_process_outbox where process_id in (select id from fw_process where id = ${rootId} or parent_id = ${rootId})`.execute(
          control.db,
        )
      ).rows.map((r) => r.status);
    const settled = async () => (await itemStates()).length === 1 && (await commandStates()).join() === 'DONE';
    for (const deadline = Date.now() + 15_000; !(await settled()) && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await itemStates()).toEqual([{ status: 'SUCCESS', n: leaves.length + 2 }]);
    expect(await commandStates()).toEqual(['DONE']);
    return {
      faultMillis: faultEnded - faultBegan,
      finishedAfterFaultBeganMillis: finishedAt - faultBegan,
      recoveryMillis: finishedAt - faultEnded,
      stoodStillMillis,
      hostStatesAtFinish,
    };
  } finally {
    for (const h of hosts) if (h.child.exitCode === null) h.child.kill('SIGCONT');
    for (const h of hosts) if (h.child.exitCode === null) h.child.kill('SIGTERM');
    await Promise.all(hosts.map((h) => h.exited));
  }
}

/** The line the suites print per run, for tools/bench/README.md. */
export function describeRun(name: string, leaves: number, figures: TreeRunFigures): string {
  return `fault ${name}: lasted ${figures.faultMillis} ms; tree of ${leaves} leaves complete ${figures.finishedAfterFaultBeganMillis} ms after it began (${figures.recoveryMillis} ms after it ended), longest stand-still ${figures.stoodStillMillis} ms, every child counted once\n`;
}
