import pg from 'pg';
import { BENCHMARKS, parseBenchArgs } from '../src';
import { redisConnectionOf } from '../src/bullmq/bullmq-flow-run';
import { parseCommandCalls } from '../src/bullmq/redis-commands';
import {
  compareOn,
  compareSettingsOf,
  describeNodeFlags,
  RECOMMENDED_NODE_FLAGS,
  runCompareChild,
  type CompareSettings,
} from '../src/compare/compare-bench';
import { seriesCostOf } from '../src/compare/compare-runners';
import {
  compareRunnersOf,
  formatCompareSummary,
  formatCostTable,
  median,
  medianCost,
  roundOrder,
  summarizeCompare,
  type CompareRecord,
} from '../src/compare/compare-stats';
import { DidNotFinishError, formatSeconds, startDeadline } from '../src/deadline/run-deadline';
import { pgBossTuningFromEnv } from '../src/pgboss/pgboss-tuning';

const databaseUrl = process.env.FW_TEST_DATABASE_URL || undefined;
const redisUrl = process.env.FW_TEST_REDIS_URL || undefined;

function record(
  round: number,
  runner: CompareRecord['runner'],
  rates: Record<string, number>,
  maxRssMb: number,
  more: Partial<CompareRecord> = {},
): CompareRecord {
  return { round, runner, rates, seconds: 1, splitSeconds: 0.5, maxRssBytes: maxRssMb * 1024 * 1024, ...more };
}

/** The scratch database a runner's child printed it created. */
function scratchNameIn(lines: readonly string[]): string {
  const name = lines.map((l) => /scratch database (fw_\w+)/.exec(l)?.[1]).find((n) => n !== undefined);
  if (name === undefined) throw new Error(`no scratch database in:\n${lines.join('\n')}`);
  return name;
}

async function databaseExists(serverUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('compare bench', () => {
  it('is registered with the runners of its peers', () => {
    expect(Object.keys(BENCHMARKS)).toEqual(
      expect.arrayContaining(['compare', 'bullmq', 'bullmq-pg', 'pgboss', 'fanout', 'graphile']),
    );
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
    expect(parseBenchArgs(['compare', '--timeout', '900']).options.timeout).toBe(900);
    expect(parseBenchArgs(['compare']).options.timeout).toBeUndefined();
    expect(() => parseBenchArgs(['compare', '--timeout', '0'])).toThrow(/--timeout must be a positive integer/);
  });

  it("gives every runner's node the recommended young generation unless --node-defaults", () => {
    expect(compareSettingsOf(parseBenchArgs(['compare']).options).nodeFlags).toEqual(['--max-semi-space-size=64']);
    expect(compareSettingsOf(parseBenchArgs(['telemetry', '--node-defaults']).options).nodeFlags).toEqual([]);
    expect(() => parseBenchArgs(['compare', '--node-defaults=1'])).toThrow(/--node-defaults takes no value/);
    expect(describeNodeFlags(RECOMMENDED_NODE_FLAGS)).toMatch(/^--max-semi-space-size=64 \(the young generation/);
    expect(describeNodeFlags([])).toBe("Node's default heap");
    expect(describeNodeFlags(['--max-semi-space-size=32'])).toBe('--max-semi-space-size=32');
  });

  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
  });

  it('rotates the runners each round so none always runs first', () => {
    expect(roundOrder(1)).toEqual(['fanout', 'bullmq', 'bullmq-pg', 'pgboss', 'graphile']);
    expect(roundOrder(2)).toEqual(['bullmq', 'bullmq-pg', 'pgboss', 'graphile', 'fanout']);
    expect(roundOrder(3)).toEqual(['bullmq-pg', 'pgboss', 'graphile', 'fanout', 'bullmq']);
    expect(roundOrder(5)).toEqual(['graphile', 'fanout', 'bullmq', 'bullmq-pg', 'pgboss']);
    expect(roundOrder(6)).toEqual(roundOrder(1));
  });

  it('runs only the runners --runners names (fanout among them), rotated the same way', () => {
    const { options } = parseBenchArgs(['compare', '--runners', 'bullmq, fanout']);
    expect(options.runners).toEqual(['bullmq', 'fanout']);
    const runners = compareRunnersOf(options.runners);
    expect(runners).toEqual(['fanout', 'bullmq']);
    expect(roundOrder(1, runners)).toEqual(['fanout', 'bullmq']);
    expect(roundOrder(2, runners)).toEqual(['bullmq', 'fanout']);
    expect(compareRunnersOf(undefined)).toEqual(['fanout', 'bullmq', 'bullmq-pg', 'pgboss', 'graphile']);
    expect(() => compareRunnersOf(['fanout', 'sidekiq'])).toThrow(
      /unknown runner\(s\) sidekiq; choose from fanout, bullmq/,
    );
    expect(() => compareRunnersOf(['bullmq'])).toThrow(/must include fanout/);
    expect(() => parseBenchArgs(['compare', '--runners'])).toThrow(/--runners needs a value/);
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
      { name: 'fanout', rates: [2000, 3000, 4000], median: 3000, unfinished: [], failed: [], cost: {} },
      { name: 'bullmq', rates: [5000, 6000, 1000], median: 5000, unfinished: [], failed: [], cost: {} },
      { name: 'graphile-counted', rates: [1500], median: 1500, unfinished: [], failed: [], cost: {} },
      { name: 'graphile-bare', rates: [12000], median: 12000, unfinished: [], failed: [], cost: {} },
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

  it('keeps the runs that did not finish apart: medians of the finished rounds, no ratio without one', () => {
    const s = summarizeCompare([
      record(1, 'fanout', { fanout: 2000 }, 300),
      record(2, 'fanout', { fanout: 3000 }, 300),
      record(3, 'fanout', { fanout: 4000 }, 300),
      record(1, 'bullmq-pg', {}, 0, { unfinished: { 'bullmq-pg': 600 }, splitSeconds: Number.NaN }),
      record(2, 'bullmq-pg', { 'bullmq-pg': 300 }, 200),
      record(3, 'bullmq-pg', {}, 210, { unfinished: { 'bullmq-pg': 600 } }),
      record(1, 'pgboss', {}, 150, { unfinished: { pgboss: 600 } }),
      record(2, 'pgboss', {}, 160, { unfinished: { pgboss: 900 } }),
    ]);
    expect(s.series).toEqual([
      expect.objectContaining({ name: 'fanout', rates: [2000, 3000, 4000], median: 3000, unfinished: [] }),
      expect.objectContaining({
        name: 'bullmq-pg',
        rates: [300],
        median: 300,
        unfinished: [
          { round: 1, withinSeconds: 600 },
          { round: 3, withinSeconds: 600 },
        ],
      }),
      expect.objectContaining({ name: 'pgboss', rates: [] }),
    ]);
    expect(s.series[2].median).toBeNaN();
    expect(s.ratios[0]).toEqual({ against: 'bullmq-pg', ratio: 10 });
    expect(s.ratios[1].against).toBe('pgboss');
    expect(s.ratios[1].ratio).toBeNaN();
    expect(s.peakRss).toEqual([
      { runner: 'fanout', bytes: 300 * 1024 * 1024 },
      { runner: 'bullmq-pg', bytes: 210 * 1024 * 1024 },
      { runner: 'pgboss', bytes: 160 * 1024 * 1024 },
    ]);
    const lines = formatCompareSummary(s);
    expect(lines).toContain('  bullmq-pg     300   median 300 leaves/s; did not finish within 600 s in rounds 1, 3');
    expect(lines).toContain('  pgboss        median n/a; did not finish within 600 / 900 s in rounds 1, 2');
    expect(lines).toContain('  ratios (fanout median / other median): bullmq-pg 10.00, pgboss n/a');
  });

  it('records a peer whose process ended without a result in its round, and gives no ratio without a finished round', () => {
    const s = summarizeCompare([
      record(1, 'fanout', { fanout: 10_000 }, 300),
      record(1, 'bullmq', {}, 0, { failed: { bullmq: 'SIGABRT' }, splitSeconds: Number.NaN }),
      record(2, 'bullmq', { bullmq: 5000 }, 1600),
    ]);
    expect(s.series[1]).toEqual(
      expect.objectContaining({ name: 'bullmq', rates: [5000], failed: [{ round: 1, reason: 'SIGABRT' }] }),
    );
    expect(s.ratios).toEqual([{ against: 'bullmq', ratio: 2 }]);
    expect(formatCompareSummary(s)).toContain(
      '  bullmq    5000   median 5000 leaves/s; ended without a result in round 1 (SIGABRT)',
    );
  });

  it('gives each series the median of its costs per leaf and prints them as a table, n/a where not measured', () => {
    const s = summarizeCompare([
      record(1, 'fanout', { fanout: 2000 }, 300, {
        costs: { fanout: { nodeCpuMs: 0.1, restCpuMs: 0.09, statements: 0.03, transactions: 0.02 } },
      }),
      record(2, 'fanout', { fanout: 3000 }, 300, {
        costs: { fanout: { nodeCpuMs: 0.3, restCpuMs: 0.07, statements: 0.05, transactions: 0.04 } },
      }),
      record(3, 'fanout', { fanout: 4000 }, 300, {
        costs: { fanout: { nodeCpuMs: 0.2, restCpuMs: 0.08, statements: 0.04, transactions: 0.03 } },
      }),
      record(1, 'bullmq', { bullmq: 5000 }, 900, {
        costs: { bullmq: { nodeCpuMs: 0.13, restCpuMs: 0.05, redisCommands: 40 } },
      }),
      record(1, 'graphile', { 'graphile-counted': 1500, 'graphile-bare': 12000, 'graphile-batched': 1600 }, 130, {
        costs: {
          'graphile-counted': { nodeCpuMs: 0.3, statements: 1.27, transactions: 1.28 },
          'graphile-bare': { nodeCpuMs: 0.08, statements: 0.01, transactions: 0.01 },
          'graphile-batched': { nodeCpuMs: 0.16, statements: 1.01, transactions: 1.02 },
        },
      }),
    ]);
    expect(s.series.map((x) => x.name)).toEqual([
      'fanout',
      'bullmq',
      'graphile-counted',
      'graphile-bare',
      'graphile-batched',
    ]);
    expect(s.series[0].cost).toEqual({ nodeCpuMs: 0.2, restCpuMs: 0.08, statements: 0.04, transactions: 0.03 });
    expect(s.series[1].cost).toEqual({ nodeCpuMs: 0.13, restCpuMs: 0.05, redisCommands: 40 });
    expect(s.ratios.map((r) => r.against)).toEqual(['bullmq', 'graphile-counted', 'graphile-bare', 'graphile-batched']);
    expect(s.ratios[3].ratio).toBeCloseTo(3000 / 1600);
    const table = formatCostTable(s.series);
    expect(table[0]).toMatch(
      /^ {2}per leaf \(medians\) +node CPU ms {2}rest CPU ms {2}statements {2}transactions {2}Redis commands$/,
    );
    expect(table[1]).toMatch(/^ {2}fanout +0\.200 +0\.080 +0\.04 +0\.03 +n\/a$/);
    expect(table[2]).toMatch(/^ {2}bullmq +0\.130 +0\.050 +n\/a +n\/a +40\.00$/);
    expect(table[3]).toMatch(/^ {2}graphile-counted +0\.300 +n\/a +1\.27 +1\.28 +n\/a$/);
    expect(formatCompareSummary(s).slice(-6)).toEqual(table);
  });

  it('takes the median of each cost column over the rounds that measured it', () => {
    expect(medianCost([{ nodeCpuMs: 1, statements: 4 }, { nodeCpuMs: 3 }, { nodeCpuMs: 2, statements: 2 }])).toEqual({
      nodeCpuMs: 2,
      statements: 3,
    });
    expect(medianCost([])).toEqual({});
  });

  it('turns a run into its cost per leaf: CPU in ms, statements, transactions, Redis commands', () => {
    expect(
      seriesCostOf(
        2000,
        { processSeconds: 0.5, restSeconds: 1 },
        { leafCost: { statements: 0.06, transactions: 0.1 } },
      ),
    ).toEqual({ nodeCpuMs: 0.25, restCpuMs: 0.5, statements: 0.06, transactions: 0.1 });
    expect(seriesCostOf(1000, { processSeconds: 0.2, restSeconds: undefined }, { redisCommandsPerLeaf: 39.5 })).toEqual(
      { nodeCpuMs: 0.2, redisCommands: 39.5 },
    );
    expect(seriesCostOf(1000, undefined)).toEqual({});
  });

  it("sums the calls of INFO commandstats, the scripts' own commands included", () => {
    const info = [
      '# Commandstats',
      'cmdstat_evalsha:calls=120,usec=900,usec_per_call=7.50,rejected_calls=0,failed_calls=0',
      'cmdstat_hset:calls=400,usec=300,usec_per_call=0.75,rejected_calls=0,failed_calls=0',
      'cmdstat_info:calls=2,usec=60,usec_per_call=30.00,rejected_calls=0,failed_calls=0',
      '',
    ].join('\r\n');
    expect(parseCommandCalls(info)).toBe(522);
    expect(parseCommandCalls('# Commandstats\r\n')).toBe(0);
  });

  it('ends a run that outlives its bound with "did not finish within N s"', async () => {
    const never = new Promise<void>(() => undefined);
    const bounded = startDeadline(0.05);
    await expect(bounded.race(never)).rejects.toThrow(new DidNotFinishError(0.05));
    expect(bounded.expired).toBe(true);
    await expect(bounded.race(never)).rejects.toThrow('did not finish within 0.05 s');
    const unbounded = startDeadline(undefined);
    await expect(unbounded.race(Promise.resolve(7))).resolves.toBe(7);
    expect(unbounded.expired).toBe(false);
    const roomy = startDeadline(60);
    await expect(roomy.race(Promise.resolve('done'))).resolves.toBe('done');
    roomy.clear();
    expect(formatSeconds(600)).toBe('600');
    expect(formatSeconds(0.001)).toBe('0.001');
  });

  it("reads the pg-boss settings from FW_PGBOSS_*, refusing a value below pg-boss's least", () => {
    const saved = { ...process.env };
    try {
      delete process.env.FW_PGBOSS_BATCH;
      expect(pgBossTuningFromEnv()).toEqual({
        batchSize: 50,
        localConcurrency: 2,
        pollingIntervalMillis: 500,
        flowIntervalSeconds: 1,
        pool: 10,
      });
      process.env.FW_PGBOSS_BATCH = '100';
      expect(pgBossTuningFromEnv().batchSize).toBe(100);
      process.env.FW_PGBOSS_POLL_MS = '100';
      expect(() => pgBossTuningFromEnv()).toThrow(/FW_PGBOSS_POLL_MS must be an integer of at least 500/);
    } finally {
      process.env = saved;
    }
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

  // Registered only when a PostgreSQL server is named (FW_TEST_DATABASE_URL).
  if (databaseUrl) {
    it.each(['bullmq-pg', 'pgboss'] as const)(
      'reports a %s run past its bound as not finished and drops its scratch database [postgres]',
      async (runner) => {
        const lines: string[] = [];
        const settings: CompareSettings = {
          leaves: 50,
          rounds: 1,
          databaseUrl,
          redisUrl: redisUrl ?? 'redis://127.0.0.1:6379',
          code: 'source',
          timeoutSeconds: 0.001,
          nodeFlags: RECOMMENDED_NODE_FLAGS,
        };
        const r = await runCompareChild(runner, settings, (line) => lines.push(line));
        expect(lines[0]).toMatch(/^node v\d+\.\d+\.\d+ .*--max-semi-space-size=64/);
        expect(r.unfinished).toEqual({ [runner]: 0.001 });
        expect(r.rates).toEqual({});
        expect(lines).toContain(`${runner}: did not finish within 0.001 s`);
        expect(await databaseExists(databaseUrl, scratchNameIn(lines))).toBe(false);
      },
      // Past the child's own bound plus the grace after which compare kills it.
      150_000,
    );
  }

  // Registered only when both a PostgreSQL server (FW_TEST_DATABASE_URL) and a Redis (FW_TEST_REDIS_URL) are named.
  if (databaseUrl && redisUrl) {
    it('runs one round of 50 leaves of every runner, each in its own process [postgres, redis]', async () => {
      const out: string[] = [];
      const s = await compareOn(
        { leaves: 50, rounds: 1, databaseUrl, redisUrl, code: 'source', timeoutSeconds: 120 },
        { out: (line) => out.push(line) },
      );
      expect(s.series.map((x) => x.name)).toEqual([
        'fanout',
        'bullmq',
        'bullmq-pg',
        'pgboss',
        'graphile-counted',
        'graphile-bare',
        'graphile-batched',
      ]);
      for (const x of s.series) {
        expect(x.median).toBeGreaterThan(0);
        expect(x.unfinished).toEqual([]);
        expect(x.cost.nodeCpuMs).toBeGreaterThan(0);
      }
      const cost = Object.fromEntries(s.series.map((x) => [x.name, x.cost]));
      for (const name of ['fanout', 'bullmq-pg', 'pgboss', 'graphile-counted', 'graphile-bare', 'graphile-batched']) {
        expect(cost[name].statements).toBeGreaterThan(0);
        expect(cost[name].transactions).toBeGreaterThan(0);
        expect(cost[name].redisCommands).toBeUndefined();
      }
      // Every leaf of the counted fan-ins commits its own count.
      expect(cost['graphile-counted'].transactions).toBeGreaterThanOrEqual(1);
      expect(cost.bullmq.redisCommands).toBeGreaterThan(1);
      expect(cost.bullmq.statements).toBeUndefined();
      expect(s.peakRss.map((p) => p.runner)).toEqual(['fanout', 'bullmq', 'bullmq-pg', 'pgboss', 'graphile']);
      expect(out.filter((l) => /^round 1 /.test(l))).toHaveLength(5);
      expect(out.some((l) => /\[bullmq 1\] +parent done in .*; \d+ keys removed/.test(l))).toBe(true);
      expect(out.some((l) => /^ {2}per leaf \(medians\)/.test(l))).toBe(true);
    }, 180_000);
  }
});
