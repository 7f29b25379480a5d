import type { WorkerDto } from '@fw/process-api';
import { createTestDatabase, describeEachDatabase, postgresServerUrl, type TestDatabase } from '@fw/test-support';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { sql } from 'kysely';
import { makeJsonProcessConfigurator } from '@fw/process-service';
import {
  fixedWorkLimits,
  makeFairClaimer,
  makeJdbcWorkerHost,
  makeWorkItemRepository,
  makeWorkItemRunner,
  workItemDb,
  type ClaimedWorkItem,
  type WorkItemRunner,
} from '../src';
import { AddParts, SplitSum, SUM_DEFINITIONS, SumPart } from './fixtures/sum-workers';
import { clearItems, enqueue, sleep, waitFor, workerDto } from './support';

const claimOf = (workerId: string, limit: number) => ({ workerId, limit, leaseMillis: 60_000 });
const many = (n: number, overrides: Partial<WorkerDto>) =>
  Array.from({ length: n }, (_, i) => workerDto({ input: { i }, ...overrides }));
const tenantsOf = (items: readonly ClaimedWorkItem[]) => items.map((i) => i.tenant);
const count = (values: ReadonlyArray<string | null>, value: string) => values.filter((v) => v === value).length;

describeEachDatabase('fair claims', (getDb) => {
  const database = () => getDb().database;
  const db = () => workItemDb(database());
  const repo = makeWorkItemRepository();
  const runners: WorkItemRunner[] = [];

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop({ timeoutMillis: 1000 })));
    await clearItems(database());
    await sql`delete from fw_process_work_rate`.execute(db());
  });

  it('serves a tenant with a few due items at once, however long the backlog of another', async () => {
    await enqueue(database(), many(300, { tenant: 'big' }));
    await enqueue(database(), many(3, { tenant: 'small' }));
    const claimer = makeFairClaimer();

    const first = await claimer.claim(db(), claimOf('w1', 10));
    // An equal share each (5 + 5): small takes its 3, big the rest of the batch.
    expect(first).toHaveLength(10);
    expect(count(tenantsOf(first), 'small')).toBe(3);

    // The former claim, oldest due first, leaves small behind big's whole backlog.
    await repo.release(db(), first[0]!.id, first[0]!.claimToken);
    const oldest = await repo.claim(db(), claimOf('w2', 10));
    expect(count(tenantsOf(oldest), 'small')).toBe(0);
  });

  it('claims early only for tenants without a backlog, leaving the backlogged tenant to its next batch', async () => {
    await enqueue(database(), many(300, { tenant: 'big' }));
    const claimer = makeFairClaimer();
    // Big fills its share of a batch: it has a backlog.
    expect(count(tenantsOf(await claimer.claim(db(), claimOf('w1', 10))), 'big')).toBe(10);
    expect(await claimer.claimEarly(db(), claimOf('w1', 3))).toEqual([]);

    await enqueue(database(), many(3, { tenant: 'small' }));
    expect(tenantsOf(await claimer.claimEarly(db(), claimOf('w1', 2)))).toEqual(['small', 'small']);
    expect(tenantsOf(await claimer.claimEarly(db(), claimOf('w1', 5)))).toEqual(['small']);
    expect(await claimer.claimEarly(db(), claimOf('w1', 5))).toEqual([]);
    const pending = await sql<{
      n: string;
    }>`select count(*) as n from fw_process_work_item where status = 'PENDING'`.execute(db());
    expect(Number(pending.rows[0]!.n)).toBe(290);
  });

  it('gives a runner’s few free slots to a tenant without a backlog while big waits for a whole batch (minClaim)', async () => {
    await enqueue(database(), many(40, { tenant: 'big' }));
    const held: Array<() => void> = [];
    const done: string[] = [];
    const handler = async (worker: WorkerDto) => {
      if (worker.tenant === 'big') await new Promise<void>((resolve) => held.push(resolve));
      done.push(worker.tenant ?? '');
    };
    // A long poll interval: only wake-ups (a slot freed, runner.wake()) make it claim.
    const runner = makeWorkItemRunner({
      database: database(),
      handler,
      concurrency: 8,
      batchSize: 4,
      minClaim: 4,
      pollIntervalMillis: 60_000,
    });
    runners.push(runner);
    runner.start();
    await waitFor(() => held.length === 8, 10_000, 'two batches of big running');

    held[0]!();
    await waitFor(() => done.length === 1, 10_000, 'one of big’s items done');
    await sleep(200);
    expect(held).toHaveLength(8); // one slot free: big waits for a batch of 4

    await enqueue(database(), many(1, { tenant: 'small' }));
    runner.wake();
    await waitFor(() => done.includes('small'), 10_000, 'small served through the free slot');
    expect(held).toHaveLength(8);

    // Three more of big's finish: four slots, big's next batch of four at once.
    for (const release of held.slice(1, 4)) release();
    await waitFor(() => held.length === 12, 10_000, 'big’s next batch');
    await sleep(200);
    expect(held).toHaveLength(12);
    for (const release of held) release();
  });

  it('visits every tenant in turn when there are more tenants than a batch', async () => {
    const tenants = ['t1', 't2', 't3', 't4', 't5', 't6', 't7'];
    for (const tenant of tenants) await enqueue(database(), many(4, { tenant }));
    await enqueue(database(), many(2, { tenant: null }));
    const claimer = makeFairClaimer();

    const served: Array<string | null> = [];
    for (let i = 0; i < 4; i++) served.push(...tenantsOf(await claimer.claim(db(), claimOf('w1', 2))));
    // Eight groups, two per claim: four claims serve each group once before any twice.
    expect(new Set(served).size).toBe(8);
    expect(served).toContain(null);
  });

  it('claims each tenant’s work by priority, and lets a low priority that waited long enough overtake (aging)', async () => {
    await enqueue(database(), [
      ...many(3, { tenant: 't', processType: 'low', priority: 1 }),
      ...many(3, { tenant: 't', processType: 'high', priority: 9 }),
      ...many(3, { tenant: 't', processType: 'plain' }),
    ]);
    const claimer = makeFairClaimer();
    const typesOf = async (limit: number) =>
      (await claimer.claim(db(), claimOf('w1', limit))).map((i) => i.processType);
    expect(await typesOf(3)).toEqual(['high', 'high', 'high']);
    expect(await typesOf(3)).toEqual(['plain', 'plain', 'plain']);
    expect(await typesOf(3)).toEqual(['low', 'low', 'low']);
    await clearItems(database());

    // One level is worth one minute of waiting: a priority-1 item due 10 minutes ago ranks before
    // fresh priority-9 work (8 levels = 8 minutes), one due 5 minutes ago does not.
    const [old, older] = [
      workerDto({ tenant: 't', processType: 'low', priority: 1 }),
      workerDto({ tenant: 't', processType: 'low', priority: 1 }),
    ];
    await enqueue(database(), [old, older, ...many(2, { tenant: 't', processType: 'high', priority: 9 })]);
    await sql`update fw_process_work_item set run_at = now() - interval '10 minutes' where process_id = ${older.processId}::uuid`.execute(
      db(),
    );
    await sql`update fw_process_work_item set run_at = now() - interval '5 minutes' where process_id = ${old.processId}::uuid`.execute(
      db(),
    );
    expect((await claimer.claim(db(), claimOf('w1', 1))).map((i) => i.processId)).toEqual([older.processId]);
    expect(await typesOf(2)).toEqual(['high', 'high']);
    expect((await claimer.claim(db(), claimOf('w1', 1))).map((i) => i.processId)).toEqual([old.processId]);
  });

  it('holds concurrency limits per tenant and in all, and gives the slots back when items finish', async () => {
    await enqueue(database(), [
      ...many(10, { tenant: 'a', processType: 'capped' }),
      ...many(10, { tenant: 'b', processType: 'capped' }),
      ...many(10, { tenant: 'c', processType: 'capped' }),
    ]);
    await enqueue(database(), many(5, { tenant: 'a', processType: 'free' }));
    const claimer = makeFairClaimer({
      limits: fixedWorkLimits({ capped: { concurrency: { perTenant: 2, global: 5 } } }),
    });

    const first = await claimer.claim(db(), claimOf('w1', 50));
    const capped = first.filter((i) => i.processType === 'capped');
    expect(capped).toHaveLength(5);
    for (const tenant of ['a', 'b', 'c']) expect(count(tenantsOf(capped), tenant)).toBeLessThanOrEqual(2);
    expect(first.filter((i) => i.processType === 'free')).toHaveLength(5);
    expect(await claimer.claim(db(), claimOf('w2', 50))).toEqual([]);

    // Success, a retry, DEAD and a release (a runner's stop) each free a slot; a new claim takes
    // exactly those (the retried item is not due yet, the released one is again).
    await repo.complete(db(), capped[0]!.id, capped[0]!.claimToken);
    await repo.retry(db(), capped[1]!.id, capped[1]!.claimToken, 'boom', 60_000);
    await repo.markDead(db(), capped[2]!.id, capped[2]!.claimToken, 'boom', { reported: true, leaseMillis: 1000 });
    await repo.release(db(), capped[3]!.id, capped[3]!.claimToken);
    const next = await claimer.claim(db(), claimOf('w2', 50));
    expect(next).toHaveLength(4);
    const running = await sql<{
      tenant: string;
      n: string;
    }>`select tenant, count(*) as n from fw_process_work_item where status = 'RUNNING' and process_type = 'capped' group by tenant`.execute(
      db(),
    );
    expect(running.rows.reduce((sum, r) => sum + Number(r.n), 0)).toBe(5);
    expect(running.rows.every((r) => Number(r.n) <= 2)).toBe(true);
  });

  it('holds a per-tenant limit while runners run the items, on every path back (success, failure)', async () => {
    await enqueue(database(), [
      ...many(12, { tenant: 'a', processType: 'capped' }),
      ...many(12, { tenant: 'b', processType: 'capped' }),
    ]);
    const limits = { capped: { concurrency: { perTenant: 3 } } };
    const active = new Map<string, number>();
    let highest = 0;
    let calls = 0;
    const handler = async (worker: WorkerDto) => {
      const tenant = worker.tenant ?? '';
      active.set(tenant, (active.get(tenant) ?? 0) + 1);
      highest = Math.max(highest, active.get(tenant)!);
      await sleep(30);
      active.set(tenant, active.get(tenant)! - 1);
      if (++calls % 4 === 0) throw new Error('every fourth attempt fails');
    };
    const common = {
      database: database(),
      limits,
      handler,
      concurrency: 10,
      pollIntervalMillis: 20,
      leaseSeconds: 30,
      backoff: () => 10,
    };
    runners.push(makeWorkItemRunner({ ...common, workerId: 'r1' }), makeWorkItemRunner({ ...common, workerId: 'r2' }));
    runners.forEach((r) => r.start());
    await waitFor(
      async () =>
        Number(
          (
            await sql<{ n: string }>`select count(*) as n from fw_process_work_item where status = 'SUCCESS'`.execute(
              db(),
            )
          ).rows[0]!.n,
        ) === 24,
      30_000,
      'every item done',
    );
    expect(highest).toBe(3);
  });

  it('takes concurrency and priority from the definitions in makeJdbcWorkerHost', async () => {
    const definitions = SUM_DEFINITIONS.map((d) =>
      d.processType === 'sum-part' ? { ...d, concurrency: { perTenant: 1 }, priority: 8 } : d,
    );
    const host = makeJdbcWorkerHost({
      database: database(),
      closeDatabase: false,
      configurator: makeJsonProcessConfigurator({ definitions }),
      workers: [new SplitSum(), new SumPart(40), new AddParts()],
      concurrency: 8,
      runner: { pollIntervalMillis: 20 },
      outbox: { pollIntervalMillis: 20 },
    });
    host.start();
    try {
      const { mutatedEntity } = await host.manager.createProcess(
        { processDefName: 'sum', args: { numbers: [1, 2, 3, 4, 5, 6] } },
        { tenant: 't1' },
      );
      let most = 0;
      await waitFor(
        async () => {
          const parts = await sql<{
            n: string;
          }>`select count(*) as n from fw_process_work_item where status = 'RUNNING' and process_type = 'sum-part'`.execute(
            db(),
          );
          most = Math.max(most, Number(parts.rows[0]!.n));
          return (
            (await host.manager.getProcess(mutatedEntity.id, { tenant: 't1' })).mutatedEntity.state.stateId ===
            'PROCESSED'
          );
        },
        30_000,
        'the sum PROCESSED',
      );
      expect(most).toBe(1);
      const priorities = await sql<{
        process_type: string;
        priority: number;
      }>`select distinct process_type, priority from fw_process_work_item order by 1`.execute(db());
      expect(priorities.rows.map((r) => [r.process_type, Number(r.priority)])).toEqual([
        ['sum', 5],
        ['sum-part', 8],
      ]);
    } finally {
      await host.stop({ drainMillis: 1000 });
    }
  });

  it('starts at most perSecond items a second per tenant (rate limit), and per type in all with scope global', async () => {
    await enqueue(database(), [
      ...many(30, { tenant: 'a', processType: 'rated' }),
      ...many(30, { tenant: 'b', processType: 'rated' }),
    ]);
    const claimer = makeFairClaimer({
      limits: fixedWorkLimits({ rated: { rateLimit: { perSecond: 4, scope: 'tenant' } } }),
    });
    const started = Date.now();
    const claimed: ClaimedWorkItem[] = [];
    claimed.push(...(await claimer.claim(db(), claimOf('w1', 50))));
    expect(count(tenantsOf(claimed), 'a')).toBe(4);
    expect(count(tenantsOf(claimed), 'b')).toBe(4);
    expect(await claimer.claim(db(), claimOf('w1', 50))).toEqual([]);
    while (Date.now() - started < 1000) {
      claimed.push(...(await claimer.claim(db(), claimOf('w1', 50))));
      await sleep(100);
    }
    const seconds = (Date.now() - started) / 1000;
    // A full bucket (one second's worth), then perSecond: never more than 4 + 4 × elapsed each.
    for (const tenant of ['a', 'b']) {
      expect(count(tenantsOf(claimed), tenant)).toBeGreaterThanOrEqual(6);
      expect(count(tenantsOf(claimed), tenant)).toBeLessThanOrEqual(Math.floor(4 + 4 * seconds));
    }

    await clearItems(database());
    await enqueue(database(), [
      ...many(30, { tenant: 'a', processType: 'shared' }),
      ...many(30, { tenant: 'b', processType: 'shared' }),
    ]);
    const global = makeFairClaimer({
      limits: fixedWorkLimits({ shared: { rateLimit: { perSecond: 5, scope: 'global' } } }),
    });
    const both = await global.claim(db(), claimOf('w1', 50));
    expect(both).toHaveLength(5);
    expect(count(tenantsOf(both), 'a')).toBeGreaterThanOrEqual(2);
    expect(count(tenantsOf(both), 'b')).toBeGreaterThanOrEqual(2);
  });
});

const ROOT = path.resolve(__dirname, '../../..');

/** A worker OS process of `fixtures/limited-runner.ts`, with its output collected. */
interface Child {
  process: ChildProcess;
  output: () => string;
  exited: Promise<NodeJS.Signals | null>;
}

function spawnRunner(url: string, workerId: string, perTenant: number): Child {
  // `node --import tsx` runs the TypeScript in this very process, so SIGKILL reaches the runner.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'fixtures/limited-runner.ts'), url, workerId, String(perTenant)],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        FW_LOG_LEVEL: 'silent',
        TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
        NODE_OPTIONS: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  return { process: child, output: () => output, exited };
}

// Several operating-system processes on one database: PostgreSQL only.
if (postgresServerUrl()) {
  describe('a concurrency limit across worker processes [postgres]', () => {
    let testDb: TestDatabase | undefined;
    const children: Child[] = [];
    beforeAll(async () => {
      testDb = await createTestDatabase('postgres');
    });
    afterAll(async () => {
      for (const child of children)
        if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
      await Promise.all(children.map((c) => c.exited));
      await testDb?.dispose();
    });

    it('never has more than 5 RUNNING per tenant under 4 processes of 50 slots, and gets a killed worker’s slots back after its lease', async () => {
      const { database, url } = testDb!;
      const items = workItemDb(database);
      const running = async () =>
        (
          await sql<{
            tenant: string;
            n: string;
          }>`select tenant, count(*) as n from fw_process_work_item where status = 'RUNNING' and process_type = 'limited' group by tenant`.execute(
            items,
          )
        ).rows;
      const highest = new Map<string, number>();
      let sampling = true;
      let samples = 0;
      const sampler = (async () => {
        while (sampling) {
          for (const row of await running())
            highest.set(row.tenant, Math.max(highest.get(row.tenant) ?? 0, Number(row.n)));
          samples++;
          await sleep(5);
        }
      })();
      try {
        // The victim holds 5 of tenant a's slots with steps that never end.
        const hanging = many(5, { tenant: 'a', processType: 'limited', input: { hang: true } });
        await enqueue(database, hanging);
        const victim = spawnRunner(url, 'victim', 5);
        children.push(victim);
        await waitFor(
          () => (victim.output().match(/STARTED/g) ?? []).length === 5,
          60_000,
          `the victim to start 5 items (output: ${victim.output()})`,
        );

        for (const id of ['w2', 'w3', 'w4']) children.push(spawnRunner(url, id, 5));
        await waitFor(
          () => children.every((c) => c.output().includes('READY')),
          60_000,
          'every worker process claiming',
        );
        await enqueue(
          database,
          ['a', 'b', 'c'].flatMap((tenant) => many(60, { tenant, processType: 'limited', input: {} })),
        );
        const succeededOf = async (tenants: string[]) =>
          Number(
            (
              await sql<{
                n: string;
              }>`select count(*) as n from fw_process_work_item where status = 'SUCCESS' and tenant = any(${tenants}::text[])`.execute(
                items,
              )
            ).rows[0]!.n,
          );
        await waitFor(async () => (await succeededOf(['b', 'c'])) === 120, 60_000, 'the items of b and c done');
        // Tenant a is at its limit all along: only the victim's 5 run, none of its 60 others.
        expect(await succeededOf(['a'])).toBe(0);
        expect(Number((await running()).find((r) => r.tenant === 'a')?.n)).toBe(5);

        victim.process.kill('SIGKILL');
        expect(await victim.exited).toBe('SIGKILL');
        const succeeded = async () =>
          Number(
            (
              await sql<{ n: string }>`select count(*) as n from fw_process_work_item where status = 'SUCCESS'`.execute(
                items,
              )
            ).rows[0]!.n,
          );
        await waitFor(
          async () => (await succeeded()) === 185,
          60_000,
          'every item done after the victim’s leases expired',
        );
      } finally {
        sampling = false;
        await sampler;
      }
      expect(samples).toBeGreaterThan(50);
      expect(Object.fromEntries(highest)).toEqual({ a: 5, b: 5, c: 5 });
      const retaken = await items
        .selectFrom('fw_process_work_item')
        .select(['locked_by', 'attempts', 'status'])
        .where(sql<boolean>`payload->'input'->>'hang' = 'true'`)
        .execute();
      expect(retaken).toHaveLength(5);
      const workers = await items
        .selectFrom('fw_process_work_item')
        .select('locked_by')
        .distinct()
        .where('status', '=', 'SUCCESS')
        .execute();
      expect(workers.length).toBeGreaterThanOrEqual(3);
      for (const item of retaken) {
        expect(item).toMatchObject({ status: 'SUCCESS', attempts: 2 });
        expect(item.locked_by).not.toBe('victim');
      }
    }, 180_000);
  });
}
