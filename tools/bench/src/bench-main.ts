import { BENCHMARKS } from './bench-registry';
import type { BenchIo, BenchRunner } from './bench-types';
import { BenchUsageError, DEFAULT_BENCH_OPTIONS, MAX_FANOUT_WORKERS, parseBenchArgs } from './cli-args';
import { WARMUP_MAX_REQUESTS, WARMUP_SLICE_REQUESTS, WARMUP_STEADY_DIFFERENCE } from './query/warm-up';

export function benchUsage(benchmarks: Readonly<Record<string, BenchRunner>> = BENCHMARKS): string {
  const names = Object.entries(benchmarks).map(([name, b]) => `  ${name.padEnd(8)} ${b.description}`);
  const d = DEFAULT_BENCH_OPTIONS;
  return [
    'usage: npm run bench -- <name> [--requests N] [--warmup N] [--connections C] [--database-url URL] [--rows R] [--leaves N] [--workers K] [--runs N] [--rounds N] [--timeout S] [--runners a,b] [--source] [--node-defaults] [--telemetry] [--cpu-prof [DIR]]',
    '',
    `  --warmup N    query: warm-up requests per server (0: none; default: slices of ${WARMUP_SLICE_REQUESTS} until two in a row agree within ${WARMUP_STEADY_DIFFERENCE * 100} %, at most ${WARMUP_MAX_REQUESTS})`,
    "  --leaves N    fanout: leaf processes of the fan-out (default 10000); fairness: leaves of big's fan-out (default 100000)",
    '  --rounds N    compare: rounds of fanout, bullmq, bullmq-pg, pgboss and graphile, interleaved (default 3); telemetry: rounds of fanout off and on',
    '  --timeout S   compare, bullmq-pg, pgboss: a run of a peer still going after S seconds is reported as not finished (compare: default 600)',
    '  --runners a,b compare: only these runners (fanout among them), e.g. fanout,bullmq (default: all)',
    "  --node-defaults compare, telemetry: every runner's node with Node's default heap (default: --max-semi-space-size=64, the young generation recommended for fan-out hosts)",
    '  --telemetry   fanout: metrics scraped every second and spans exported to a local OTLP receiver',
    `  --workers K   fanout: run the runners and dispatchers in K worker OS processes (0..${MAX_FANOUT_WORKERS}; default 0: all in this process)`,
    '',
    'benchmarks:',
    ...names,
    '',
    `defaults: --requests ${d.requests} --connections ${d.connections} --rows ${d.rows} --database-url ${d.databaseUrl}`,
  ].join('\n');
}

/** Runs the named benchmark; returns the exit code (0 done, 1 failed, 2 bad arguments). */
export async function benchMain(
  argv: readonly string[],
  io: BenchIo & { err(line: string): void },
  benchmarks: Readonly<Record<string, BenchRunner>> = BENCHMARKS,
): Promise<number> {
  let parsed: ReturnType<typeof parseBenchArgs>;
  try {
    parsed = parseBenchArgs(argv);
    if (!Object.hasOwn(benchmarks, parsed.name)) throw new BenchUsageError(`unknown benchmark '${parsed.name}'`);
  } catch (err) {
    if (!(err instanceof BenchUsageError)) throw err;
    io.err(`bench: ${err.message}`);
    io.err(benchUsage(benchmarks));
    return 2;
  }
  try {
    await benchmarks[parsed.name].run(parsed.options, io);
    return 0;
  } catch (err) {
    io.err(`bench ${parsed.name} failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
