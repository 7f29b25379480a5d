import type { WorkerDto } from '@fw/process-api';
import { describeEachDatabase } from '@fw/test-support';
import { makeWorkItemRunner, type DeadWorkItem, type WorkItemRunner } from '../src';
import { clearItems, enqueue, itemsOf, waitFor, workerDto } from './support';

type Outcome = { status: string; failure?: { message: string }; error?: unknown };

describeEachDatabase('runner with a batch service that takes whole batches (runMany)', (getDb) => {
  const runners: WorkItemRunner[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop({ timeoutMillis: 50 })));
    await clearItems(getDb().database);
  });

  it('hands each claimed batch over in one call and settles each item by its own outcome', async () => {
    const { database } = getDb();
    // What each input asks the batch service to answer.
    const kinds = ['ok', 'ok', 'retry-once', 'failed', 'stale', 'ok', 'ignored', 'ok'];
    const workers = kinds.map((kind, i) => workerDto({ input: { i, kind } }));
    await enqueue(database, workers);
    const calls: number[] = [];
    const singles: unknown[] = [];
    const attemptsSeen = new Map<number, number[]>();
    const dead: DeadWorkItem[] = [];
    const outcomeOf = (message: unknown, attempt: number): Outcome => {
      const { i, kind } = (message as WorkerDto).input as { i: number; kind: string };
      attemptsSeen.set(i, [...(attemptsSeen.get(i) ?? []), attempt]);
      if (kind === 'retry-once' && attempt === 1) return { status: 'retry', failure: { message: 'flaky' } };
      if (kind === 'failed') return { status: 'failed', failure: { message: 'reported to the process' } };
      if (kind === 'stale') return { status: 'stale' };
      if (kind === 'ignored') return { status: 'ignored' };
      return { status: 'succeeded' };
    };
    const runner = makeWorkItemRunner({
      database,
      batchService: {
        run: async (message) => {
          singles.push(message);
          return { status: 'succeeded' };
        },
        runMany: async (requests) => {
          calls.push(requests.length);
          return requests.map((r) => outcomeOf(r.message, r.attempt?.attempt ?? 0));
        },
      },
      onDead: async (item) => void dead.push(item),
      concurrency: 8,
      batchSize: 8,
      minClaim: 8,
      pollIntervalMillis: 20,
      maxAttempts: 2,
      backoff: { baseMillis: 1, maxMillis: 1 },
    });
    runners.push(runner);
    runner.start();
    await waitFor(
      async () => (await itemsOf(database)).every((r) => r.status === 'SUCCESS' || r.status === 'DEAD'),
      20_000,
      'every item settled',
    );
    await waitFor(() => dead.length >= 1, 5_000, 'the ignored item reported');

    const byIndex = new Map(
      (await itemsOf(database)).map((r) => [workers.findIndex((w) => w.processId === r.process_id), r]),
    );
    const status = (i: number) => byIndex.get(i)?.status;
    expect([0, 1, 2, 4, 5, 7].map(status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
    expect(byIndex.get(2)?.attempts).toBe(2); // retried once, then succeeded
    expect(status(3)).toBe('DEAD'); // failed: reported by the batch service, DEAD without retry
    expect(byIndex.get(3)?.attempts).toBe(1);
    expect(status(6)).toBe('DEAD'); // ignored on both attempts: DEAD and reported by the runner
    expect(dead.map((d) => d.processId)).toEqual([workers[6].processId]);
    expect(attemptsSeen.get(2)).toEqual([1, 2]);
    expect(calls[0]).toBe(8); // the first claim: all eight in one call
    expect(singles).toEqual([]); // never the one-message path
    expect(runner.stats()).toMatchObject({ completed: 6, staleAcks: 0 });
  });

  it('a runMany that throws fails the attempt of every item of its batch (retried, nothing lost)', async () => {
    const { database } = getDb();
    const workers = Array.from({ length: 5 }, (_, i) => workerDto({ input: { i } }));
    await enqueue(database, workers);
    let calls = 0;
    const runner = makeWorkItemRunner({
      database,
      batchService: {
        run: async () => ({ status: 'succeeded' }),
        runMany: async (requests) => {
          calls++;
          if (calls === 1) throw new Error('batch service crashed');
          return requests.map(() => ({ status: 'succeeded' }));
        },
      },
      concurrency: 5,
      batchSize: 5,
      pollIntervalMillis: 20,
      backoff: { baseMillis: 1, maxMillis: 1 },
    });
    runners.push(runner);
    runner.start();
    await waitFor(
      async () => (await itemsOf(database)).every((r) => r.status === 'SUCCESS'),
      20_000,
      'every item SUCCESS',
    );
    const items = await itemsOf(database);
    expect(items.map((r) => r.attempts)).toEqual([2, 2, 2, 2, 2]);
    expect(items.map((r) => r.last_error)).toEqual([null, null, null, null, null]);
    expect(runner.stats()).toMatchObject({ completed: 5, retried: 5 });
  });

  it('aborts the signals of a batch still running when the runner gives up waiting at stop, and releases its items', async () => {
    const { database } = getDb();
    await enqueue(
      database,
      Array.from({ length: 3 }, (_, i) => workerDto({ input: { i } })),
    );
    const reasons: string[] = [];
    let started = 0;
    const runner = makeWorkItemRunner({
      database,
      batchService: {
        run: async () => ({ status: 'succeeded' }),
        // Each step waits for its signal (read only then: the runner makes it on first read).
        runMany: (requests) => {
          started += requests.length;
          return Promise.all(
            requests.map(
              ({ attempt }) =>
                new Promise<Outcome>((resolve) =>
                  attempt?.signal?.addEventListener('abort', () => {
                    reasons.push((attempt.signal?.reason as Error).message);
                    resolve({ status: 'retry', failure: { message: 'aborted' } });
                  }),
                ),
            ),
          );
        },
      },
      concurrency: 3,
      batchSize: 3,
      minClaim: 3,
      pollIntervalMillis: 20,
    });
    runner.start();
    await waitFor(() => started === 3, 10_000, 'the batch running');
    await runner.stop({ timeoutMillis: 50 });
    expect(reasons).toEqual(['runner stopped', 'runner stopped', 'runner stopped']);
    expect((await itemsOf(database)).map((r) => r.status)).toEqual(['PENDING', 'PENDING', 'PENDING']);
  });
});
