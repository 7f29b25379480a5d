/**
 * The BullMQ flow of `bullmq-flow-run.ts` on BullMQ's PostgreSQL backend (`withBackend(
 * createPostgresBackend)`), on a scratch database of the server it is given: BullMQ's schema is
 * installed there first (`runMigrations`), then the same flow runs (a parent and N leaf children,
 * leaf concurrency 50, the parent reads its children's values). Each BullMQ instance (leaf worker,
 * parent worker, flow producer) opens what the backend opens for a connection string: a pool of
 * pg's default size and a LISTEN connection. Besides the rate it measures what each leaf cost
 * PostgreSQL (`startLeafCost`: transactions, statements, rows and index entries). The database is
 * dropped at the end, also when the run fails or runs out of time; once out of time its sessions
 * are ended first, so that closing does not wait for a statement that never finishes.
 *
 * @example
 * const r = await runBullmqPostgresFlow('postgres://postgres@127.0.0.1:5432/test', 2000, { concurrency: 50, deadlineSeconds: 600 }, console.log);
 * r.leavesPerSecond; r.leafCost.statements;
 */
import { createPostgresBackend, runMigrations, withBackend } from 'bullmq';
import { formatLeafCost, startLeafCost, type LeafCost } from '../fanout/leaf-cost';
import { createScratchDatabase, withClient } from '../scratch/scratch-database';
import { endSessionsOf, sessionsReported } from '../scratch/scratch-sessions';
import { runFlowOn, type BullmqFlowRun, type BullmqFlowTuning } from './bullmq-flow-run';

/** The PostgreSQL run: the flow and what each leaf cost the database. */
export interface BullmqPostgresFlowResult extends BullmqFlowRun {
  leafCost: LeafCost;
}

/** Runs the flow on a scratch database of `serverUrl` and drops it before returning. */
export async function runBullmqPostgresFlow(
  serverUrl: string,
  leaves: number,
  tuning: BullmqFlowTuning,
  print: (line: string) => void = () => undefined,
): Promise<BullmqPostgresFlowResult> {
  const scratch = await createScratchDatabase(serverUrl, 'fw_bullmq_pg');
  print(`  scratch database ${scratch.name}`);
  try {
    const version = await withClient(scratch.url, (c) => runMigrations(c));
    print(`  BullMQ schema version ${version} installed`);
    let cost: Awaited<ReturnType<typeof startLeafCost>> | undefined;
    const run = await runFlowOn(
      {
        classes: withBackend(createPostgresBackend),
        options: { connection: { connectionString: scratch.url } },
        onStart: async () => void (cost = await startLeafCost(scratch.url)),
        abort: () => endSessionsOf(serverUrl, scratch.name),
      },
      leaves,
      tuning,
      print,
    );
    await sessionsReported();
    const leafCost = await cost!.stop(leaves);
    for (const line of formatLeafCost(leafCost)) print(line);
    return { ...run, leafCost };
  } finally {
    await scratch.drop();
  }
}
