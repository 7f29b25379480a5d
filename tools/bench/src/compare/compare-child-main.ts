/**
 * Entry of one runner of `npm run bench -- compare` (and of `telemetry`), in an OS process of its
 * own so that its peak RSS is its own:
 * `node --import tsx compare-child-main.ts <runner> <leaves> <database url> <redis url>`.
 * Prints the runner's lines on stdout and sends one `CompareChildMessage` over IPC at the end
 * (`fanout-telemetry` also sends where its metrics are served, before the run).
 */
import { bullmqBenchOn } from '../bullmq/bullmq-flow-bench';
import { fanoutBenchOn } from '../fanout-bench';
import { graphileBenchOn } from '../graphile/graphile-fanout-bench';
import { COMPARE_RUNNERS } from './compare-stats';

/** Runners a child process can run: those of `compare`, and fanout with metrics and tracing on. */
export const CHILD_RUNNERS = [...COMPARE_RUNNERS, 'fanout-telemetry'] as const;
export type ChildRunner = (typeof CHILD_RUNNERS)[number];

/** What a runner measured. */
export interface ChildMeasured {
  rates: Record<string, number>;
  seconds: number;
  splitSeconds: number;
  /** CPU seconds of the runner's process and of the rest of the machine during the run (fanout only). */
  cpu?: { processSeconds: number; restSeconds: number | undefined };
}

/** The messages a runner's process sends: the result (or failure) before it exits. */
export type CompareChildMessage =
  | ({ type: 'result'; maxRssBytes: number } & ChildMeasured)
  | { type: 'failed'; message: string }
  | { type: 'metrics-served'; url: string };

async function measure(
  runner: ChildRunner,
  leaves: number,
  databaseUrl: string,
  redisUrl: string,
): Promise<ChildMeasured> {
  const io = { out: (line: string) => console.log(line) };
  switch (runner) {
    case 'fanout':
    case 'fanout-telemetry': {
      const telemetry =
        runner === 'fanout-telemetry'
          ? { onMetricsServed: (url: string) => void send({ type: 'metrics-served', url }) }
          : undefined;
      const r = await fanoutBenchOn(databaseUrl, leaves, io, { ...(telemetry ? { telemetry } : {}) });
      return {
        rates: { [runner]: r.leavesPerSecond },
        seconds: r.seconds,
        splitSeconds: r.splitSeconds,
        ...(r.cpu ? { cpu: { processSeconds: r.cpu.processSeconds, restSeconds: r.cpu.restSeconds } } : {}),
      };
    }
    case 'bullmq': {
      const r = await bullmqBenchOn(redisUrl, leaves, io);
      return { rates: { bullmq: r.leavesPerSecond }, seconds: r.seconds, splitSeconds: r.splitSeconds };
    }
    case 'graphile': {
      const { counted, bare } = await graphileBenchOn(databaseUrl, leaves, io);
      return {
        rates: { 'graphile-counted': counted.leavesPerSecond, 'graphile-bare': bare.leavesPerSecond },
        seconds: counted.seconds,
        splitSeconds: counted.splitSeconds,
      };
    }
  }
}

function send(message: CompareChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });
}

async function main(): Promise<void> {
  const [runner, leaves, databaseUrl, redisUrl] = process.argv.slice(2);
  if (!(CHILD_RUNNERS as readonly string[]).includes(runner)) throw new Error(`unknown runner '${runner}'`);
  const m = await measure(runner as ChildRunner, Number(leaves), databaseUrl, redisUrl);
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
