import { BENCHMARKS } from '../src';
import { graphileBenchOn } from '../src/graphile/graphile-fanout-bench';
import type { GraphileFanoutResult } from '../src/graphile/graphile-fanout-run';

const serverUrl = process.env.FW_TEST_DATABASE_URL || undefined;
const LEAVES = 50;

function expectAllLeavesAndOneAggregate(result: GraphileFanoutResult): void {
  expect(result).toMatchObject({ leaves: LEAVES, leafRuns: LEAVES, aggregateRuns: 1, jobsLeft: 0 });
  expect(result.seconds).toBeGreaterThan(0);
}

describe('graphile bench', () => {
  it('is registered as the graphile-worker comparison of the fanout bench', () => {
    expect(BENCHMARKS.graphile.description).toMatch(/^graphile-worker comparison for fanout/);
  });

  // Registered only when FW_TEST_DATABASE_URL names a PostgreSQL server (graphile-worker needs one).
  if (serverUrl) {
    it(`runs ${LEAVES} leaves and one aggregate with the three fan-ins on a scratch database [postgres]`, async () => {
      const out: string[] = [];
      const { bare, counted, batched } = await graphileBenchOn(serverUrl, LEAVES, { out: (line) => out.push(line) });

      expectAllLeavesAndOneAggregate(bare);
      expect(bare.counter).toBeNull();
      expectAllLeavesAndOneAggregate(counted);
      expect(counted.counter).toBe(LEAVES);
      expectAllLeavesAndOneAggregate(batched);
      expect(batched.counter).toBe(LEAVES);
      // Each variant's cost is its own: every counted leaf updates the counter row once (the batched
      // run also resets the row the counted run created: one more update).
      const counter = (r: typeof counted) => r.leafCost.tables.find((t) => t.table === 'bench_fan_in');
      expect(counter(counted)?.updated).toBe(1);
      expect(counter(batched)?.updated).toBe((LEAVES + 1) / LEAVES);
      expect(counter(bare)).toBeUndefined();
      expect(counted.leafCost.transactions).toBeGreaterThanOrEqual(1);
      expect(out).toContain(
        '  batched: concurrency=24 pool=25 localQueue.size=500 completeJobBatchDelay=250 failJobBatchDelay=250 pollInterval=200 noHandleSignals=true preparedStatements=true',
      );
      expect(out[out.length - 3]).toMatch(/^batched_jobs_per_s=\d+$/);
      expect(out[out.length - 2]).toMatch(/^counted_jobs_per_s=\d+$/);
      expect(out[out.length - 1]).toMatch(/^jobs_per_s=\d+$/);
    });
  }
});
