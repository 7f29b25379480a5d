/**
 * Entry of one runner of `npm run bench -- compare` (and of `telemetry`), in an OS process of its
 * own so that its peak RSS is its own:
 * `node --import tsx compare-child-main.ts <runner> <leaves> <database url> <redis url> [<timeout s>] [<warm-up leaves>]`.
 * Prints the runner's lines on stdout and sends one `CompareChildMessage` over IPC at the end
 * (`fanout-telemetry` also sends where its metrics are served, before the run).
 */
import { fanoutBenchOn } from '../fanout-bench';
import { measurePeer, seriesCostOf } from './compare-runners';
import { COMPARE_RUNNERS, type ChildMeasured } from './compare-stats';

export type { ChildMeasured } from './compare-stats';

/** Runners a child process can run: those of `compare`, and fanout with metrics and tracing on. */
export const CHILD_RUNNERS = [...COMPARE_RUNNERS, 'fanout-telemetry'] as const;
export type ChildRunner = (typeof CHILD_RUNNERS)[number];

/** The messages a runner's process sends: the result (or failure) before it exits. */
export type CompareChildMessage =
  | ({ type: 'result'; maxRssBytes: number } & ChildMeasured)
  | { type: 'failed'; message: string }
  | { type: 'metrics-served'; url: string };

async function measureFanout(
  runner: 'fanout' | 'fanout-telemetry',
  leaves: number,
  databaseUrl: string,
  warmupLeaves: number,
): Promise<ChildMeasured> {
  const io = { out: (line: string) => console.log(line) };
  const telemetry =
    runner === 'fanout-telemetry'
      ? { onMetricsServed: (url: string) => void send({ type: 'metrics-served', url }) }
      : undefined;
  const r = await fanoutBenchOn(databaseUrl, leaves, io, { ...(telemetry ? { telemetry } : {}), warmupLeaves });
  return {
    rates: { [runner]: r.leavesPerSecond },
    seconds: r.seconds,
    splitSeconds: r.splitSeconds,
    ...(r.cpu ? { cpu: { processSeconds: r.cpu.processSeconds, restSeconds: r.cpu.restSeconds } } : {}),
    costs: { [runner]: seriesCostOf(leaves, r.cpu, r) },
  };
}

function send(message: CompareChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });
}

async function main(): Promise<void> {
  const [runner, leavesArg, databaseUrl, redisUrl, timeoutArg, warmupArg] = process.argv.slice(2);
  if (!(CHILD_RUNNERS as readonly string[]).includes(runner)) throw new Error(`unknown runner '${runner}'`);
  const leaves = Number(leavesArg);
  const timeoutSeconds = timeoutArg ? Number(timeoutArg) : undefined;
  const io = { out: (line: string) => console.log(line) };
  io.out(`node ${process.version} ${[process.env.NODE_OPTIONS ?? '', ...process.execArgv].join(' ').trim()}`);
  const m =
    runner === 'fanout' || runner === 'fanout-telemetry'
      ? await measureFanout(runner, leaves, databaseUrl, warmupArg ? Number(warmupArg) : 0)
      : await measurePeer(
          runner as Exclude<ChildRunner, 'fanout' | 'fanout-telemetry'>,
          {
            leaves,
            databaseUrl,
            redisUrl,
            timeoutSeconds,
          },
          io,
        );
  // maxRSS is in kilobytes.
  await send({ type: 'result', ...m, maxRssBytes: process.resourceUsage().maxRSS * 1024 });
}

main().then(
  () => process.exit(0),
  async (err: unknown) => {
    await send({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    process.exit(1);
  },
);
