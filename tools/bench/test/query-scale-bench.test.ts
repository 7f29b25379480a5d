import { BENCHMARKS } from '../src';
import { queryScaleBenchOn } from '../src/query-scale/query-scale-bench';

const serverUrl = process.env.FW_TEST_DATABASE_URL || undefined;
// Enough rows that the stream of every row cannot fit in the sockets' buffers: the cancelled
// client must leave while the host still streams (at 50,000 rows the whole answer is buffered
// before the client goes).
const ROWS = 300_000;

describe('query-scale bench', () => {
  it('is registered', () => {
    expect(BENCHMARKS['query-scale'].description).toMatch(/^the query service on a 10,000,000-row table/);
  });

  // Registered only when FW_TEST_DATABASE_URL names a PostgreSQL server (the bench needs server-side
  // cursors, the planner's estimates and pg_stat_activity). The host runs on the sources, so no
  // build is needed; the figures are checked for presence and sense, not for speed (~10 s).
  if (serverUrl) {
    it(`runs every measurement on ${ROWS.toLocaleString('en-US')} rows and prints each figure [postgres]`, async () => {
      const out: string[] = [];
      const figures = await queryScaleBenchOn(
        serverUrl,
        { rows: ROWS, uncachedRequests: 200, cachedRequests: 1000, connections: 8, host: 'sources' },
        { out: (line) => out.push(line) },
      );
      const printed = out.join('\n');

      // Deep pages: the last full page, by offset and by a cursor whose page the bench checked.
      expect(figures.deepPage).toBe(3000);
      for (const label of ['offset page 1', 'offset page 3,000', 'cursor page 1', 'cursor page 3,000'])
        expect(printed).toMatch(
          new RegExp(`^  ${label} +p50 +\\d+\\.\\d ms +p95 +\\d+\\.\\d ms +\\(\\d+ runs\\)$`, 'm'),
        );
      for (const latency of Object.values(figures.paging)) {
        expect(latency.p50).toBeGreaterThan(0);
        expect(latency.p95).toBeGreaterThanOrEqual(latency.p50);
      }

      // The stream delivers every row, then its summary line; the host's memory is read.
      expect(figures.stream.rows).toBe(ROWS);
      expect(figures.stream.summary).toBe(`{"_summary":{"rows":${ROWS},"truncated":false}}`);
      expect(figures.stream.firstRowMs).toBeGreaterThan(0);
      expect(figures.stream.firstRowMs).toBeLessThan(figures.stream.seconds * 1000);
      expect(figures.stream.hostCpuMs).toBeGreaterThan(0);
      expect(figures.stream.rssBefore).toBeGreaterThan(0);
      expect(figures.stream.rssPeak).toBeGreaterThanOrEqual(figures.stream.rssBefore);
      expect(printed).toMatch(
        /^stream of 300,000 rows \(NDJSON\): \d+ rows\/s, \d+\.\d\d s, first row after \d+\.\d ms, host CPU \d+\.\d\d s$/m,
      );
      expect(printed).toMatch(
        /^ {2}host RSS before \d+\.\d MB, peak \(VmHWM\) \d+\.\d MB \(goal < 150 MB\); last line /m,
      );

      // The cancelled client: the bench saw the stream's connection busy, then free again.
      expect(figures.cancelled.rowsRead).toBeGreaterThan(0);
      expect(figures.cancelled.freedMs).toBeGreaterThanOrEqual(0);
      expect(printed).toMatch(/^cancelled client: connection back in the pool \d+\.\d ms after the client left/m);

      // Counts: the planner's estimate after VACUUM ANALYZE is close to the table's size.
      expect(figures.counts.estimate).toBeGreaterThan(ROWS * 0.8);
      expect(figures.counts.estimate).toBeLessThan(ROWS * 1.2);
      expect(printed).toMatch(/^ {2}exact count\(\*\) +p50/m);
      expect(printed).toMatch(/^ {2}planned \(estimate \d+\) +p50/m);

      // The answer cache: every request answered, both rates printed.
      expect(figures.cache.uncached).toMatchObject({ completed: 200, failures: 0 });
      expect(figures.cache.cached).toMatchObject({ completed: 1000, failures: 0 });
      expect(printed).toMatch(
        /^ {2}uncached \d+ req\/s \(p50 \d+\.\d ms\), cached \d+ req\/s \(p50 \d+\.\d ms\): \d+\.\d ×/m,
      );
      expect(printed).not.toMatch(/WARNING/);
    }, 180_000);
  }
});
