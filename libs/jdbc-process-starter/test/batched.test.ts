import { describeEachDatabase } from '@fw/test-support';
import { makeWorkItemRepository, makeWorkItemRunner, makeWorkItemStarter, type WorkItemRunner } from '../src';
import { clearItems, itemsOf, waitFor, workerDto } from './support';

const repo = makeWorkItemRepository();

describeEachDatabase('batched enqueue and acknowledgement', (getDb) => {
  const runners: WorkItemRunner[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop({ timeoutMillis: 50 })));
    await clearItems(getDb().database);
  });

  it('startWorkers enqueues many items in one statement, only in a committed transaction, never twice', async () => {
    const { database } = getDb();
    const starter = makeWorkItemStarter();
    let wakes = 0;
    starter.onEnqueued(() => wakes++);
    expect(starter.transactional).toBe(true);
    const workers = Array.from({ length: 5 }, (_, i) => workerDto({ input: { i, text: 'quote " and \\ backslash' } }));
    await expect(
      database.db.transaction().execute(async (trx) => {
        await starter.startWorkers(workers, { transaction: trx, afterCommit: () => undefined });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await itemsOf(database)).toHaveLength(0);
    for (let round = 0; round < 2; round++) {
      const callbacks: Array<() => void | Promise<void>> = [];
      await database.db
        .transaction()
        .execute((trx) => starter.startWorkers(workers, { transaction: trx, afterCommit: (cb) => callbacks.push(cb) }));
      for (const cb of callbacks) await cb();
    }
    const items = await itemsOf(database);
    expect(items).toHaveLength(5);
    expect(wakes).toBe(1);
    const row = await database.db
      .selectFrom('fw_process_work_item' as never)
      .select(['payload' as never, 'max_attempts' as never, 'status' as never])
      .where('process_id' as never, '=', workers[2].processId as never)
      .executeTakeFirstOrThrow();
    const { processId: _id, processType: _type, workerType: _worker, tenant: _tenant, ...stored } = workers[2];
    expect(row).toEqual({ payload: stored, max_attempts: 5, status: 'PENDING' });
  });

  it('completeMany completes each item fenced by its own claim token', async () => {
    const { database } = getDb();
    const workers = Array.from({ length: 3 }, () => workerDto());
    await database.db.transaction().execute((trx) => repo.enqueueMany(trx as never, workers, { maxAttempts: 5 }));
    const claimed = await repo.claim(database.db as never, { workerId: 'w', limit: 10, leaseMillis: 60_000 });
    expect(claimed).toHaveLength(3);
    const done = await repo.completeMany(database.db as never, [
      { id: claimed[0].id, claimToken: claimed[0].claimToken },
      { id: claimed[1].id, claimToken: claimed[2].claimToken }, // someone else's token: refused
    ]);
    expect([...done]).toEqual([claimed[0].id]);
    const statuses = Object.fromEntries((await itemsOf(database)).map((r) => [r.id, r.status]));
    expect(statuses).toEqual({ [claimed[0].id]: 'SUCCESS', [claimed[1].id]: 'RUNNING', [claimed[2].id]: 'RUNNING' });
  });

  it('a runner with minClaim acknowledges a whole batch and ends every item SUCCESS', async () => {
    const { database } = getDb();
    const workers = Array.from({ length: 40 }, (_, i) => workerDto({ input: { i } }));
    await database.db.transaction().execute((trx) => repo.enqueueMany(trx as never, workers, { maxAttempts: 5 }));
    const seen: number[] = [];
    const runner = makeWorkItemRunner({
      database,
      handler: async (w) => void seen.push((w.input as { i: number }).i),
      concurrency: 20,
      batchSize: 10,
      minClaim: 10,
      pollIntervalMillis: 20,
    });
    runners.push(runner);
    runner.start();
    await waitFor(
      async () => (await itemsOf(database)).every((r) => r.status === 'SUCCESS'),
      20_000,
      'every item SUCCESS',
    );
    expect(seen.sort((a, b) => a - b)).toEqual(workers.map((_, i) => i));
    expect(runner.stats()).toMatchObject({ completed: 40, staleAcks: 0 });
  });
});
