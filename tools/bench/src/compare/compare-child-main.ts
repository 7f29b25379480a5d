/**
 * Entry of one runner of `npm run bench -- compare`, in an OS process of its own so that its peak
 * RSS is its own: `node --import tsx compare-child-main.ts <runner> <leaves> <database url> <redis url>`.
 * Prints the runner's lines on stdout and sends one `CompareChildMessage` over IPC at the end.
 */
import { bullmqBenchOn } from '../bullmq/bullmq-flow-bench';
import { fanoutBenchOn } from '../fanout-bench';
import { graphileBenchOn } from '../graphile/graphile-fanout-bench';
import { COMPARE_RUNNERS, type CompareRunner } from './compare-stats';

/** The message a runner's process sends before it exits. */
export type CompareChildMessage =
  | { type: 'result'; rates: Record<string, number>; seconds: number; splitSeconds: number; maxRssBytes: number }
  | { type: 'failed'; message: string };

interface Measured {
  rates: Record<string, number>;
  seconds: number;
  splitSeconds: number;
}

async function measure(
  runner: CompareRunner,
  leaves: number,
  databaseUrl: string,
  redisUrl: string,
): Promise<Measured> {
  const io = { out: (line: string) => console.log(line) };
  switch (runner) {
    case 'fanout': {
      const r = await fanoutBenchOn(databaseUrl, leaves, io);
      return { rates: { fanout: r.leavesPerSecond }, seconds: r.seconds, splitSeconds: r.splitSeconds };
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
  if (!(COMPARE_RUNNERS as readonly string[]).includes(runner)) throw new Error(`unknown runner '${runner}'`);
  const m = await measure(runner as CompareRunner, Number(leaves), databaseUrl, redisUrl);
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
