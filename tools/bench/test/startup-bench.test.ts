import { BENCHMARKS } from '../src';
import { missingBuilds, STARTUP_SHAPES, startupBenchOn } from '../src/startup/startup-bench';

const serverUrl = process.env.FW_TEST_DATABASE_URL || undefined;
const built = missingBuilds().length === 0;

describe('startup bench', () => {
  it('is registered', () => {
    expect(BENCHMARKS.startup.description).toMatch(/^time from spawn to the first answered request/);
  });

  // Registered only when FW_TEST_DATABASE_URL names a PostgreSQL server and the hosts and
  // tools/migrate are built (npm run build); the built JS only, one run per shape (~5-10 s).
  if (serverUrl && built) {
    it('times one start of every shape of the built hosts on a scratch database [postgres, built]', async () => {
      const out: string[] = [];
      const samples = await startupBenchOn(serverUrl, { runs: 1, ways: ['built'] }, { out: (line) => out.push(line) });

      expect(samples.tsx).toBeUndefined();
      for (const shape of STARTUP_SHAPES) {
        expect(samples.built![shape]).toHaveLength(1);
        expect(samples.built![shape][0]).toBeGreaterThan(0);
      }
      expect(out).toHaveLength(STARTUP_SHAPES.length + 1);
      expect(out[0]).toMatch(
        /^built JS {2}admin-server production \(PostgreSQL\): min \d+ ms, median \d+ ms, max \d+ ms \(1 runs\)$/,
      );
      expect(out[out.length - 1]).toMatch(
        /^startup: spawn to first 2xx, median of 1 run\(s\); production hosts: built JS admin-server \d+ ms, query-host \d+ ms \((within|OVER) 1000 ms\)$/,
      );
    });
  }
});
