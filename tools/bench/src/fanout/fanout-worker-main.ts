/**
 * Entry of one worker OS process of `npm run bench -- fanout --workers K`: opens its own pool on
 * the scratch database and runs a full fan-out node (process manager with the outbox dispatcher,
 * work-item runner, batch service; see `fanout-node.ts`) until the coordinator says `stop`.
 * Everything the single-process mode runs, except creating the root.
 *
 * Forked by `fanout-worker-processes.ts` as `node --import tsx fanout-worker-main.ts <database url>`
 * with the tuning in the `FW_FANOUT_*` environment; talks to the coordinator over IPC only
 * (`fanout-worker-protocol.ts`), so the coordinator's stdout stays the benchmark's report.
 */
import { createDatabase } from '@fw/core';
import { sql } from 'kysely';
import { fanoutTuningFromEnv, startFanoutNode, type FanoutNode } from './fanout-node';
import { epochMillis, type CoordinatorMessage, type WorkerMessage } from './fanout-worker-protocol';

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    // Resolve on the callback: exiting right after `send` could drop the message.
    process.send(message, undefined, undefined, () => resolve());
  });
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

async function runWorker(url: string): Promise<void> {
  const tuning = fanoutTuningFromEnv();
  const database = createDatabase({
    url,
    maxConnections: tuning.pool,
    applicationName: `fw-fanout-worker-${process.pid}`,
  });
  // Fail before `ready` when the database is unreachable, and open the first connection off the clock.
  await sql`select 1`.execute(database.db);
  const node: FanoutNode = startFanoutNode(database, tuning, {
    onOutcome: (outcome) => {
      if (outcome.workerType === 'SPLITTER') void send({ type: 'split-done', atEpochMillis: epochMillis() });
    },
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      await node.stop();
      const itemsCompleted = node.itemsCompleted();
      await database.close();
      await send({ type: 'stopped', itemsCompleted });
    })().then(
      () => process.exit(0),
      async (err: unknown) => {
        await send({ type: 'failed', message: `stop failed: ${errorMessage(err)}` });
        process.exit(1);
      },
    ));
  process.on('message', (message: CoordinatorMessage) => {
    if (message.type === 'wake') node.wake();
    else if (message.type === 'stop') void stop();
  });
  process.on('SIGTERM', () => void stop());
  // The coordinator died (or closed the channel): stop rather than run on as an orphan.
  process.on('disconnect', () => void stop());
  await send({ type: 'ready' });
}

const url = process.argv[2];
if (!url) {
  console.error('usage: node --import tsx fanout-worker-main.ts <database url>');
  process.exit(2);
}
runWorker(url).catch(async (err: unknown) => {
  await send({ type: 'failed', message: errorMessage(err) });
  process.exit(1);
});
