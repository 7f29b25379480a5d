/**
 * `npm run bench -- history [--processes N] [--leaves L] [--database-url URL]`: history at scale.
 * On a scratch database (migrated, dropped at the end):
 *
 * 1. a fan-out of L leaves on the empty database (the reference rate);
 * 2. N finished processes seeded in their real shape (`history-seed.ts`), ~90 % past retention;
 * 3. the same fan-out with that history present;
 * 4. the processes page and its total (p50/p95) as `GET /processes` computes them;
 * 5. the retention pass beside fan-outs: rounds (`--rounds`, default 3) of a fan-out alone and
 *    beside a sweep at each duty cycle compared (`history-pacing.ts`), the rest of the pass alone;
 *    rows/s, the fan-out's share of its rate alone; sizes before and after (and after VACUUM);
 * 6. a reader holding a snapshot for 60 s while a fan-out runs (held xmin), then a fan-out right
 *    after it ends: rates, dead tuples, how long until autovacuum has cleaned up.
 *
 * Also times building the indexes migrations 0012 and 0013 add, on the seeded table (the upgrade cost).
 */
import type { Database } from '@fw/core';
import {
  makeHistoryRetentionStore,
  makeHistorySweeper,
  retentionSettingsFromEnv,
  totalRows,
} from '@fw/process-management';
import { sql } from 'kysely';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import { openFanoutDatabase, runFanout } from '../fanout-bench';
import { fanoutTuningFromEnv } from '../fanout/fanout-node';
import type { FanoutResult } from '../fanout/fanout-result';
import { churnDeadTuples, holdSnapshot, pageLatency, printSizes, tableSizes } from './history-measures';
import { comparedDutyCycles, pacingRounds, printPacing } from './history-pacing';
import { HISTORY_ROOT_TYPE, seedHistory } from './history-seed';

/** Default history size (`--processes`). */
export const DEFAULT_HISTORY_PROCESSES = 10_000_000;
/** Default fan-out size (`--leaves`). */
export const DEFAULT_HISTORY_LEAVES = 100_000;
/** How long the reader holds its snapshot (FW_HISTORY_HOLD_SECONDS for quick trials). */
const HOLD_SECONDS = Number(process.env.FW_HISTORY_HOLD_SECONDS) > 0 ? Number(process.env.FW_HISTORY_HOLD_SECONDS) : 60;

/** One fan-out, its progress lines left out; prints and returns the rate. */
async function fanout(database: Database, leaves: number, label: string, io: BenchIo): Promise<FanoutResult> {
  const result = await runFanout(database, leaves, (line) => {
    if (!/children created|cpu:/.test(line)) io.out(line);
  });
  io.out(
    `  fan-out ${label}: ${leaves.toLocaleString('en')} leaves in ${result.seconds.toFixed(1)} s = ${result.leavesPerSecond.toFixed(0)} leaves/s`,
  );
  return result;
}

/**
 * The retention pass beside fan-outs: rounds comparing a fan-out alone with one beside a sweep at
 * each duty cycle (`history-pacing.ts`), then the rest of the pass alone and unpaced (its raw rate).
 */
async function retentionUnderLoad(database: Database, leaves: number, rounds: number, io: BenchIo): Promise<void> {
  const dutyCycles = comparedDutyCycles(process.env.FW_HISTORY_DUTY_CYCLES);
  io.out(
    `  retention pass beside fan-outs: ${rounds} rounds of a fan-out alone and beside a sweep at duty cycles ${dutyCycles.join(', ')} (order turned each round)`,
  );
  const runs = await pacingRounds(database, { leaves, rounds, dutyCycles, fanout }, io);
  printPacing(runs, dutyCycles, io);
  const sweeper = makeHistorySweeper({
    store: makeHistoryRetentionStore(database),
    lease: { acquire: async () => true, release: async () => undefined, isHeld: () => true },
    settings: retentionSettingsFromEnv({}),
    definitions: async () => [],
    dutyCycle: 1,
  });
  const pass = await sweeper.sweepOnce();
  const seconds = pass.millis / 1000;
  const rows = totalRows(pass.removed);
  const inRounds = runs.reduce((n, r) => n + (r.sweep?.rows ?? 0), 0);
  io.out(
    `  rest of the pass, alone and unpaced: ${pass.roots.toLocaleString('en')} trees, ${rows.toLocaleString('en')} rows (${pass.removed.processes.toLocaleString('en')} processes) in ${seconds.toFixed(1)} s = ${(rows / seconds).toFixed(0)} rows/s, ${pass.transactions} transactions, ${pass.skipped} skipped; ${(rows + inRounds).toLocaleString('en')} rows removed in all`,
  );
  io.out(`    removed per table: ${JSON.stringify(pass.removed)}`);
  await sweeper.stop();
}

/** A 60 s held snapshot during a fan-out, then a fan-out after it; dead tuples and autovacuum's recovery. */
async function heldSnapshot(
  database: Database,
  url: string,
  leaves: number,
  reference: number,
  io: BenchIo,
): Promise<void> {
  io.out(
    `  a reader holds a snapshot for ${HOLD_SECONDS} s (REPEATABLE READ, idle in transaction); fan-outs run meanwhile`,
  );
  const reader = await holdSnapshot(url);
  const heldUntil = performance.now() + HOLD_SECONDS * 1000;
  const rates: number[] = [];
  while (performance.now() < heldUntil)
    rates.push(
      (await fanout(database, leaves, `with the snapshot held (run ${rates.length + 1})`, io)).leavesPerSecond,
    );
  io.out(`  dead tuples when the reader ends: ${await churnDeadTuples(database)}`);
  await reader.release();
  const released = performance.now();
  const after = await fanout(database, leaves, 'right after the reader ended', io);
  const during = rates.reduce((a, b) => a + b, 0) / rates.length;
  io.out(
    `  held xmin: fan-out at ${((100 * during) / reference).toFixed(0)} % of the reference while held, ${((100 * after.leavesPerSecond) / reference).toFixed(0)} % right after`,
  );
  const autovacuum = (await sql<{ autovacuum: string }>`show autovacuum`.execute(database.db)).rows[0].autovacuum;
  if (autovacuum !== 'on') {
    // A server without autovacuum (this bench machine's) cleans up only when told to.
    const vacuumStarted = performance.now();
    await sql`vacuum fw_process, fw_process_work_item, fw_process_outbox`.execute(database.db);
    io.out(
      `  autovacuum is ${autovacuum} on this server: VACUUM of the churned tables took ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s; dead tuples now ${await churnDeadTuples(database)}`,
    );
    const vacuumed = await fanout(database, leaves, 'after that vacuum', io);
    io.out(
      `  after the vacuum: ${((100 * vacuumed.leavesPerSecond) / reference).toFixed(0)} % of the reference, ${((performance.now() - released) / 1000).toFixed(0)} s after the reader ended`,
    );
    return;
  }
  // Autovacuum's recovery: dead tuples every 10 s for up to two minutes, until none is left above 5,000.
  for (let waited = 0; ; waited += 10) {
    const dead = await churnDeadTuples(database);
    io.out(`    ${((performance.now() - released) / 1000).toFixed(0)} s after the reader ended: dead tuples ${dead}`);
    if (waited >= 120 || dead.split(', ').every((entry) => Number(entry.split(' ')[1].replace(/,/g, '')) < 5_000))
      break;
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }
}

/** The indexes migrations 0012 and 0013 add, as they create them. */
const UPGRADE_INDEXES: ReadonlyArray<[name: string, definition: string]> = [
  ['fw_process_root_created_idx', 'on fw_process (created_time, id) where parent_id is null'],
  ['fw_process_tenant_roots_idx', 'on fw_process (tenant, created_time desc, seq desc) where parent_id is null'],
];

/** Times building the indexes of migrations 0012 and 0013 on the seeded table (dropped first): the in-place upgrade. */
async function upgradeCost(database: Database, io: BenchIo): Promise<void> {
  for (const [name, definition] of UPGRADE_INDEXES) {
    await sql`drop index if exists ${sql.id(name)}`.execute(database.db);
    const started = performance.now();
    await sql`create index ${sql.id(name)} ${sql.raw(definition)}`.execute(database.db);
    io.out(
      `  upgrade: ${name} built on the seeded fw_process in ${((performance.now() - started) / 1000).toFixed(1)} s (writers to fw_process wait meanwhile; create index concurrently avoids that)`,
    );
  }
}

export async function historyBenchOn(
  serverUrl: string,
  processes: number,
  leaves: number,
  io: BenchIo,
  rounds = 3,
): Promise<void> {
  process.env.FW_LOG_LEVEL ??= 'error';
  const scratch = await openFanoutDatabase(serverUrl, fanoutTuningFromEnv(0).pool);
  const { database } = scratch;
  try {
    io.out(
      `history: ${processes.toLocaleString('en')} finished processes, fan-outs of ${leaves.toLocaleString('en')} leaves (PostgreSQL)`,
    );
    const empty = await fanout(database, leaves, 'on the empty database', io);
    io.out(
      `seeding ${processes.toLocaleString('en')} processes (trees of 10; roots of type ${HISTORY_ROOT_TYPE} over 300 days) …`,
    );
    const seeded = await seedHistory(database, processes, io);
    io.out(
      `  seeded ${seeded.processes.toLocaleString('en')} processes in ${seeded.roots.toLocaleString('en')} trees: ${seeded.rows.toLocaleString('en')} rows in ${seeded.seconds.toFixed(0)} s`,
    );
    await upgradeCost(database, io);
    printSizes(io, 'before retention', await tableSizes(database));
    const loaded = await fanout(database, leaves, `with ${processes.toLocaleString('en')} processes present`, io);
    io.out(
      `  fan-out with the history present: ${((100 * loaded.leavesPerSecond) / empty.leavesPerSecond).toFixed(0)} % of the empty database's rate`,
    );
    await pageLatency(database, 40, io);
    await retentionUnderLoad(database, leaves, rounds, io);
    await sql`analyze`.execute(database.db);
    printSizes(io, 'after the retention pass', await tableSizes(database));
    const vacuumStarted = performance.now();
    await sql`vacuum fw_process, fw_process_completion_event, fw_process_child_report, fw_process_work_item, fw_process_error, fw_trigger_execution, fw_trigger_log`.execute(
      database.db,
    );
    io.out(
      `  vacuum after the pass: ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s (space reusable; files keep their size)`,
    );
    printSizes(io, 'after vacuum', await tableSizes(database));
    await pageLatency(database, 40, io);
    await heldSnapshot(database, scratch.url, leaves, empty.leavesPerSecond, io);
    io.out(
      `fanout_empty_leaves_per_s=${empty.leavesPerSecond.toFixed(0)} fanout_history_leaves_per_s=${loaded.leavesPerSecond.toFixed(0)}`,
    );
  } finally {
    await scratch.drop();
  }
}

/** The `history` runner of `npm run bench` (`--processes`, default 10,000,000; `--leaves`, default 100,000). */
export const historyBench: BenchRunner = {
  description:
    'history at scale (--processes N, default 10,000,000; --leaves L, default 100,000; --rounds R, default 3): fan-out vs an empty database, the processes page and total, a retention pass beside fan-outs paced and unpaced, sizes, a held snapshot',
  async run(options: BenchOptions, io: BenchIo): Promise<void> {
    await historyBenchOn(
      process.env.FW_BENCH_DATABASE_URL || options.databaseUrl,
      options.processes ?? DEFAULT_HISTORY_PROCESSES,
      options.leaves ?? DEFAULT_HISTORY_LEAVES,
      io,
      options.rounds ?? 3,
    );
  },
};
