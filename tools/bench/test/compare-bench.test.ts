import { BENCHMARKS, parseBenchArgs } from '../src';
import { redisConnectionOf } from '../src/bullmq/bullmq-flow-run';
import { compareOn } from '../src/compare/compare-bench';
import {
  formatCompareSummary,
  median,
  roundOrder,
  summarizeCompare,
  type CompareRecord,
} from '../src/compare/compare-stats';

const databaseUrl = process.env.FW_TEST_DATABASE_URL || undefined;
const redisUrl = process.env.FW_TEST_REDIS_URL || undefined;

function record(
  round: number,
  runner: CompareRecord['runner'],
  rates: Record<string, number>,
  maxRssMb: number,
): CompareRecord {
  return { round, runner, rates, seconds: 1, splitSeconds: 0.5, maxRssBytes: maxRssMb * 1024 * 1024 };
}

describe('compare bench', () => {
  it('is registered with the bullmq runner', () => {
    expect(Object.keys(BENCHMARKS)).toEqual(expect.arrayContaining(['compare', 'bullmq', 'fanout', 'graphile']));
  });

  it('parses --leaves and --rounds; --rounds must be a positive integer', () => {
    expect(parseBenchArgs(['compare', '--leaves', '100000', '--rounds=5']).options).toMatchObject({
      leaves: 100000,
      rounds: 5,
    });
    expect(parseBenchArgs(['compare']).options.rounds).toBeUndefined();
    expect(parseBenchArgs(['compare', '--source']).options.source).toBe(true);
    expect(parseBenchArgs(['compare']).options.source).toBeUndefined();
    expect(() => parseBenchArgs(['compare', '--source=yes'])).toThrow(/--source takes no value/);
    expect(() => parseBenchArgs(['compare', '--rounds', '0'])).toThrow(/--rounds must be a positive integer/);
    expect(() => parseBenchArgs(['compare', '--rounds'])).toThrow(/--rounds needs a value/);
  });

  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
  });

  it('rotates the runners each round so none always runs first', () => {
    expect(roundOrder(1)).toEqual(['fanout', 'bullmq', 'graphile']);
    expect(roundOrder(2)).toEqual(['bullmq', 'graphile', 'fanout']);
    expect(roundOrder(3)).toEqual(['graphile', 'fanout', 'bullmq']);
    expect(roundOrder(4)).toEqual(roundOrder(1));
  });

  it('gives the medians per series, fanout ratios to the others and the peak RSS per runner', () => {
    const s = summarizeCompare([
      record(2, 'fanout', { fanout: 3000 }, 300),
      record(1, 'fanout', { fanout: 2000 }, 310),
      record(3, 'fanout', { fanout: 4000 }, 290),
      record(1, 'bullmq', { bullmq: 5000 }, 900),
      record(2, 'bullmq', { bullmq: 6000 }, 1400),
      record(3, 'bullmq', { bullmq: 1000 }, 1000),
      record(1, 'graphile', { 'graphile-counted': 1500, 'graphile-bare': 12000 }, 130),
    ]);
    expect(s.series).toEqual([
      { name: 'fanout', rates: [2000, 3000, 4000], median: 3000 },
      { name: 'bullmq', rates: [5000, 6000, 1000], median: 5000 },
      { name: 'graphile-counted', rates: [1500], median: 1500 },
      { name: 'graphile-bare', rates: [12000], median: 12000 },
    ]);
    expect(s.ratios).toEqual([
      { against: 'bullmq', ratio: 0.6 },
      { against: 'graphile-counted', ratio: 2 },
      { against: 'graphile-bare', ratio: 0.25 },
    ]);
    expect(s.peakRss).toEqual([
      { runner: 'fanout', bytes: 310 * 1024 * 1024 },
      { runner: 'bullmq', bytes: 1400 * 1024 * 1024 },
      { runner: 'graphile', bytes: 130 * 1024 * 1024 },
    ]);
    const lines = formatCompareSummary(s);
    expect(lines[0]).toMatch(/^ {2}fanout +2000 +3000 +4000 +median 3000 leaves\/s$/);
    expect(lines).toContain(
      '  ratios (fanout median / other median): bullmq 0.60, graphile-counted 2.00, graphile-bare 0.25',
    );
    expect(lines).toContain('  peak RSS: fanout 310 MB, bullmq 1400 MB, graphile 130 MB');
  });

  it('reads a redis:// URL into connection options', () => {
    expect(redisConnectionOf('redis://u:p%40ss@10.0.0.1:6380/2')).toMatchObject({
      host: '10.0.0.1',
      port: 6380,
      db: 2,
      username: 'u',
      password: 'p@ss',
    });
    expect(redisConnectionOf('redis://127.0.0.1')).toMatchObject({ host: '127.0.0.1', port: 6379, db: 0 });
    expect(() => redisConnectionOf('http://127.0.0.1')).toThrow(/not a redis:\/\/ URL/);
  });

  // Registered only when both a PostgreSQL server (FW_TEST_DATABASE_URL) and a Redis (FW_TEST_REDIS_URL) are named.
  if (databaseUrl && redisUrl) {
    it('runs one round of 50 leaves of every runner, each in its own process [postgres, redis]', async () => {
      const out: string[] = [];
      const s = await compareOn(
        { leaves: 50, rounds: 1, databaseUrl, redisUrl, code: 'source' },
        { out: (line) => out.push(line) },
      );
      expect(s.series.map((x) => x.name)).toEqual(['fanout', 'bullmq', 'graphile-counted', 'graphile-bare']);
      for (const x of s.series) expect(x.median).toBeGreaterThan(0);
      expect(s.peakRss.map((p) => p.runner)).toEqual(['fanout', 'bullmq', 'graphile']);
      expect(out.filter((l) => /^round 1 /.test(l))).toHaveLength(3);
      expect(out.some((l) => /\[bullmq 1\] +parent done in .*; \d+ keys removed/.test(l))).toBe(true);
    }, 60_000);
  }
});
