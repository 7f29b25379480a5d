import { BENCHMARKS, parseBenchArgs } from '../src';
import { telemetryOverheadOn } from '../src/telemetry/telemetry-bench';
import { startTelemetryCollector } from '../src/telemetry/telemetry-collector';
import {
  formatTelemetryOverhead,
  summarizeTelemetryOverhead,
  type TelemetryRound,
} from '../src/telemetry/telemetry-overhead';
import { benchSamplerEnv, BENCH_TRACE_SAMPLER, telemetryPartsOf } from '../src/telemetry/fanout-telemetry';

const databaseUrl = process.env.FW_TEST_DATABASE_URL || undefined;

const round = (telemetry: boolean, leavesPerSecond: number, nodeCpuSeconds: number): TelemetryRound => ({
  telemetry,
  leaves: 10_000,
  leavesPerSecond,
  nodeCpuSeconds,
});

describe('telemetry bench', () => {
  it('is registered, and fanout takes --telemetry without a value', () => {
    expect(Object.keys(BENCHMARKS)).toContain('telemetry');
    expect(parseBenchArgs(['fanout', '--telemetry']).options.telemetry).toBe(true);
    expect(parseBenchArgs(['fanout']).options.telemetry).toBeUndefined();
    expect(() => parseBenchArgs(['fanout', '--telemetry=on'])).toThrow(/--telemetry takes no value/);
  });

  it('compares the medians of each side and the node CPU per leaf', () => {
    const s = summarizeTelemetryOverhead([
      round(false, 5000, 1.5),
      round(true, 4900, 1.6),
      round(true, 4700, 1.7),
      round(false, 5200, 1.4),
      round(false, 4800, 1.6),
      round(true, 4800, 1.65),
    ]);
    expect(s.off.median).toBe(5000);
    expect(s.on.median).toBe(4800);
    expect(s.lossPercent).toBeCloseTo(4, 9);
    expect(s.withinLimit).toBe(true);
    expect(s.off.cpuMillisPerLeaf).toBeCloseTo(0.15, 9);
    expect(s.on.cpuMillisPerLeaf).toBeCloseTo(0.165, 9);
    expect(s.cpuAddedPercent).toBeCloseTo(10, 6);
    expect(formatTelemetryOverhead(s).at(-1)).toBe('telemetry_loss_pct=4.0');
    const over = summarizeTelemetryOverhead([round(false, 5000, 1), round(true, 4000, 1)]);
    expect(over.withinLimit).toBe(false);
    expect(formatTelemetryOverhead(over).join('\n')).toMatch(
      /loss with metrics and tracing on: 20\.0 % of leaves\/s \(limit 5 %\): OVER the limit/,
    );
    expect(formatTelemetryOverhead(over, 'traces').join('\n')).toMatch(/loss with tracing only on: 20\.0 %/);
    expect(formatTelemetryOverhead(over, 'metrics').join('\n')).toMatch(/loss with metrics only on: 20\.0 %/);
    expect(() => summarizeTelemetryOverhead([round(false, 5000, 1)])).toThrow(/off and on/);
    expect(s.pairedLossMedian).toBeUndefined();
    // Without the rest of the machine's CPU there is no ratio and no line for it.
    expect(s.cpuAddedPercentOfRest).toBeUndefined();
    expect(formatTelemetryOverhead(s).join('\n')).not.toContain('rest of the machine');
  });

  it("relates node's CPU to the rest of the machine's, which moves with the machine's speed alike", () => {
    const run = (telemetry: boolean, node: number, rest: number | undefined): TelemetryRound => ({
      ...round(telemetry, 5000, node),
      restCpuSeconds: rest,
    });
    // The second pair ran on a machine 20 % slower: per leaf both sides look alike, per second of the rest they do not.
    const s = summarizeTelemetryOverhead([
      run(false, 1.0, 2.0),
      run(true, 1.2, 2.4),
      run(false, 1.2, 2.4),
      run(true, 1.1, 2.0),
    ]);
    expect(s.off.nodeCpuPerRestCpu).toBeCloseTo(0.5, 9);
    expect(s.on.nodeCpuPerRestCpu).toBeCloseTo(0.525, 9);
    expect(s.cpuAddedPercentOfRest).toBeCloseTo(5, 9);
    expect(formatTelemetryOverhead(s).join('\n')).toContain(
      'node CPU per CPU second of the rest of the machine (steadier than either alone): off 0.500, on 0.525 (+5.0 %)',
    );
    expect(
      summarizeTelemetryOverhead([run(false, 1, 2), run(true, 1, undefined)]).cpuAddedPercentOfRest,
    ).toBeUndefined();
  });

  it('pairs the runs of each round, whose machine speed is alike', () => {
    const inRound = (n: number, telemetry: boolean, rate: number): TelemetryRound => ({
      ...round(telemetry, rate, 1),
      round: n,
    });
    const s = summarizeTelemetryOverhead([
      inRound(1, false, 8000),
      inRound(1, true, 7600),
      inRound(2, true, 5700),
      inRound(2, false, 6000),
      inRound(3, false, 7000),
      inRound(3, true, 7350),
      inRound(4, false, 6500),
    ]);
    expect(s.pairedLossPercents.map((x) => Number(x.toFixed(6)))).toEqual([5, 5, -5]);
    expect(s.pairedLossMedian).toBeCloseTo(5, 9);
    expect(formatTelemetryOverhead(s).join('\n')).toContain('loss within each round: 5.0, 5.0, -5.0 % → median 5.0 %');
  });

  it('samples one trace in a hundred unless OTEL_TRACES_SAMPLER says otherwise', () => {
    expect(benchSamplerEnv({})).toEqual(BENCH_TRACE_SAMPLER);
    expect(benchSamplerEnv({ OTEL_TRACES_SAMPLER: 'always_on' })).toEqual({ OTEL_TRACES_SAMPLER: 'always_on' });
  });

  it('turns on both parts unless FW_BENCH_TELEMETRY names one, and refuses another value', () => {
    expect(telemetryPartsOf({})).toBe('both');
    expect(telemetryPartsOf({ FW_BENCH_TELEMETRY: ' metrics ' })).toBe('metrics');
    expect(telemetryPartsOf({ FW_BENCH_TELEMETRY: 'traces' })).toBe('traces');
    expect(() => telemetryPartsOf({ FW_BENCH_TELEMETRY: 'logs' })).toThrow(
      /FW_BENCH_TELEMETRY must be both, metrics or traces, got "logs"/,
    );
  });

  it('collects OTLP exports and scrapes a metrics URL, counting what it got', async () => {
    const target = await startTelemetryCollector();
    const collector = await startTelemetryCollector();
    try {
      const exported = await fetch(`${collector.endpoint}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf' },
        body: new Uint8Array(100),
      });
      expect(exported.status).toBe(200);
      expect((await fetch(`${collector.endpoint}/other`, { method: 'POST' })).status).toBe(404);
      // The other collector answers 404 on /metrics: a scrape that fails is counted as such.
      collector.scrape(`${target.endpoint}/metrics`, 20);
      await new Promise((resolve) => setTimeout(resolve, 120));
      const got = await collector.stop();
      expect(got).toMatchObject({ exports: 1, exportedBytes: 100, scrapes: 0 });
      expect(got.scrapeFailures).toBeGreaterThanOrEqual(2);
    } finally {
      await target.stop();
    }
  });

  // Runs only with a PostgreSQL server (FW_TEST_DATABASE_URL), as every fanout run.
  if (databaseUrl) {
    it('runs fanout off and on in their own processes, each after its warm-up; on, the spans reach the receiver and /metrics is scraped [postgres]', async () => {
      const out: string[] = [];
      const saved = process.env.OTEL_TRACES_SAMPLER;
      process.env.OTEL_TRACES_SAMPLER = 'always_on';
      try {
        const rounds = await telemetryOverheadOn(
          { leaves: 300, rounds: 1, databaseUrl, redisUrl: '', code: 'source', warmupLeaves: 50 },
          { out: (line) => out.push(line) },
        );
        expect(rounds.map((r) => r.telemetry)).toEqual([false, true]);
        for (const r of rounds) expect(r.leavesPerSecond).toBeGreaterThan(0);
      } finally {
        if (saved === undefined) delete process.env.OTEL_TRACES_SAMPLER;
        else process.env.OTEL_TRACES_SAMPLER = saved;
      }
      const exports = out.map((l) => /\[on 1\] telemetry: (\d+) OTLP exports .*, (\d+) scrapes/.exec(l)).find(Boolean);
      expect(exports).toBeDefined();
      expect(Number(exports?.[1])).toBeGreaterThan(0);
      expect(Number(exports?.[2])).toBeGreaterThanOrEqual(1);
      // Each run warms up first, and its measured run counts its own 300 leaves only.
      for (const label of ['off 1', 'on 1']) {
        const mine = out.filter((l) => l.startsWith(`  [${label}] `));
        expect(
          mine.filter((l) =>
            /warm-up: 50 leaves in \d+\.\d\d s before the measured run \(not counted\), then a checkpoint/.test(l),
          ),
        ).toHaveLength(1);
        expect(mine.some((l) => /root PROCESSED in/.test(l))).toBe(true);
      }
      expect(out.at(-1)).toMatch(/^telemetry_loss_pct=-?\d+\.\d$/);
    }, 120_000);
  }
});
