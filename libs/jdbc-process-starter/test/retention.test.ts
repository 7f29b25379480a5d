import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import { makeWorkItemRepository, makeWorkItemRunner, type WorkItemRunner, type WorkItemRunnerOptions } from '../src';
import { clearItems, enqueue, itemsOf, sleep, waitFor, workerDto } from './support';

const repo = makeWorkItemRepository();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describeEachDatabase('retention of finished work items', (getDb) => {
  /** Starts runners with a short poll, runs `check`, and stops them whatever happened. */
  async function withRunners(
    count: number,
    options: Omit<WorkItemRunnerOptions<unknown>, 'database' | 'handler'>,
    check: (runners: WorkItemRunner[]) => Promise<void>,
  ): Promise<void> {
    const started = Array.from({ length: count }, () =>
      makeWorkItemRunner({
        database: getDb().database,
        pollIntervalMillis: 20,
        handler: async () => undefined,
        ...options,
      }),
    );
    started.forEach((r) => r.start());
    try {
      await check(started);
    } finally {
      await Promise.all(started.map((r) => r.stop({ timeoutMillis: 50 })));
    }
  }

  afterEach(() => clearItems(getDb().database));

  /** Six items: SUCCESS finished 2 h, 9 days and 10 days ago, DEAD 10 days ago, one PENDING, one SUCCESS of another process type 10 days ago. */
  async function seed(): Promise<Record<string, string>> {
    const { database } = getDb();
    const names = ['recent', 'old', 'older', 'dead', 'pending', 'otherType'];
    const workers = names.map((name) =>
      workerDto({ input: { name }, processType: name === 'otherType' ? 'export' : 'import' }),
    );
    await enqueue(database, workers);
    const db = database.db as never;
    const claimed = await repo.claim(db, { workerId: 'seed', limit: 10, leaseMillis: 60_000 });
    const byName = new Map(claimed.map((c) => [(c.payload as { input: { name: string } }).input.name, c]));
    for (const name of ['recent', 'old', 'older', 'otherType'])
      await repo.complete(db, byName.get(name)!.id, byName.get(name)!.claimToken);
    await repo.markDead(db, byName.get('dead')!.id, byName.get('dead')!.claimToken, 'boom', {
      reported: true,
      leaseMillis: 0,
    });
    await repo.release(db, byName.get('pending')!.id, byName.get('pending')!.claimToken);
    const age = { recent: 2 * HOUR, old: 9 * DAY, older: 10 * DAY, dead: 10 * DAY, otherType: 10 * DAY };
    for (const [name, millis] of Object.entries(age)) {
      await sql`update fw_process_work_item set finished_at = now() - (${millis}::double precision * interval '1 millisecond') where id = ${byName.get(name)!.id}`.execute(
        database.db,
      );
    }
    return Object.fromEntries([...byName].map(([name, c]) => [c.id, name]));
  }

  const remaining = async (names: Record<string, string>): Promise<string[]> =>
    (await itemsOf(getDb().database)).map((i) => names[i.id]!).sort();

  it('deletes SUCCESS items older than the retention (7 days by default) and keeps newer, DEAD and unfinished ones', async () => {
    const names = await seed();
    await withRunners(1, { retentionIntervalMillis: 50, retentionBatchSize: 1 }, async () => {
      await waitFor(async () => (await remaining(names)).length === 3, 10_000, 'old SUCCESS items deleted');
    });
    expect(await remaining(names)).toEqual(['dead', 'pending', 'recent']);
  });

  it('uses a shorter retention, only for its own process types', async () => {
    const names = await seed();
    await withRunners(
      1,
      { successRetentionMillis: HOUR, retentionIntervalMillis: 50, processTypes: ['import'] },
      async () => {
        await waitFor(async () => !(await remaining(names)).includes('recent'), 10_000, 'the 2-hour-old item deleted');
      },
    );
    expect(await remaining(names)).toEqual(['dead', 'otherType', 'pending']);
  });

  it('keeps everything with a retention of 0', async () => {
    const names = await seed();
    await withRunners(1, { successRetentionMillis: 0, retentionIntervalMillis: 10 }, async ([runner]) => {
      await waitFor(() => runner!.stats().claimed === 1, 5000, 'the pending item run');
      await sleep(100);
    });
    expect(await remaining(names)).toEqual(['dead', 'old', 'older', 'otherType', 'pending', 'recent']);
  });

  it('is safe with several runners sweeping at once', async () => {
    const { database } = getDb();
    await enqueue(
      database,
      Array.from({ length: 60 }, () => workerDto()),
    );
    const db = database.db as never;
    const claimed = await repo.claim(db, { workerId: 'seed', limit: 60, leaseMillis: 60_000 });
    await repo.completeMany(db, claimed);
    await sql`update fw_process_work_item set finished_at = now() - interval '8 days'`.execute(database.db);
    await withRunners(3, { retentionIntervalMillis: 20, retentionBatchSize: 7 }, async () => {
      await waitFor(async () => (await itemsOf(database)).length === 0, 10_000, 'every old item deleted');
    });
  });
});
