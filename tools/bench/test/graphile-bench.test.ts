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
    it(`runs ${LEAVES} leaves and one aggregate with both fan-ins on a scratch database [postgres]`, async () => {
      const out: string[] = [];
      const { bare, counted } = await graphileBenchOn(serverUrl, LEAVES, { out: (line) => out.push(line) });

      expectAllLeavesAndOneAggregate(bare);
      expect(bare.counter).toBeNull();
      expectAllLeavesAndOneAggregate(counted);
      expect(counted.counter).toBe(LEAVES);
      expect(out[out.length - 2]).toMatch(/^counted_jobs_per_s=\d+$/);
      expect(out[out.length - 1]).toMatch(/^jobs_per_s=\d+$/);
    });
  }
});
