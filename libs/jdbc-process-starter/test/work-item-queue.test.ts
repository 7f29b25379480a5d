import type { WorkerDto } from '@fw/process-api';
import { sql } from 'kysely';
import { describeEachDatabase } from '@fw/test-support';
import {
  makeWorkItemRepository,
  makeWorkItemRunner,
  makeWorkItemStarter,
  queueDepth,
  type DeadWorkItem,
  type WorkItemRunner,
  type WorkItemRunnerOptions,
} from '../src';
import { clearItems, deferred, enqueue, itemOf, itemsOf, sleep, waitFor, workerDto } from './support';

const repo = makeWorkItemRepository();

describeEachDatabase('work-item queue', (getDb) => {
  const runners: WorkItemRunner[] = [];
  const run = (options: Omit<WorkItemRunnerOptions<unknown>, 'database'>): WorkItemRunner => {
    const runner = makeWorkItemRunner({
      database: getDb().database,
      pollIntervalMillis: 30,
      leaseSeconds: 1,
      ...options,
    });
    runners.push(runner);
    runner.start();
    return runner;
  };

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop({ timeoutMillis: 50 })));
    await clearItems(getDb().database);
  });

  describe('starter', () => {
    it('enqueues nothing when the state change rolls back, once when it commits, and never again on replay', async () => {
      const { database } = getDb();
      const starter = makeWorkItemStarter({ notify: true });
      let wakes = 0;
      starter.onEnqueued(() => wakes++);
      const worker = workerDto();
      const afterCommit: Array<() => void | Promise<void>> = [];
      await expect(
        database.db.transaction().execute(async (trx) => {
          await starter.startWorker(worker, { transaction: trx, afterCommit: (cb) => afterCommit.push(cb) });
          throw new Error('state change failed');
        }),
      ).rejects.toThrow('state change failed');
      expect(await itemsOf(database)).toHaveLength(0);

      await enqueue(database, [worker], starter);
      await enqueue(database, [worker], starter); // a replayed state change
      const items = await itemsOf(database);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ process_id: worker.processId, status: 'PENDING', attempts: 0 });
      expect(wakes).toBe(1);
      const row = await database.db
        .selectFrom('fw_process_work_item' as never)
        .select(['idempotency_key' as never, 'payload' as never, 'max_attempts' as never, 'tenant' as never])
        .executeTakeFirstOrThrow();
      // The payload keeps what the columns do not (the columns are not written twice).
      const { processId: _id, processType: _type, workerType: _worker, tenant: _tenant, ...stored } = worker;
      expect(row).toEqual({
        idempotency_key: `${worker.processId}:import:EXECUTOR`,
        payload: stored,
        max_attempts: 5,
        tenant: 't1',
      });
      const [claimed] = await repo.claim(database.db as never, { workerId: 'w', limit: 1, leaseMillis: 60_000 });
      expect(claimed.payload).toEqual(worker);
    });

    it('hands a worker the WorkerDto it was given, from one item or many, and from rows of earlier releases', async () => {
      const { database } = getDb();
      const one = workerDto({ input: { n: 1 }, tenant: null });
      const many = [workerDto({ input: { n: 2 }, tenant: 'a' }), workerDto({ input: { n: 3 }, tenant: 'b' })];
      await database.db.transaction().execute(async (trx) => {
        await repo.enqueue(trx as never, one, { maxAttempts: 5 });
        await repo.enqueueMany(trx as never, many, { maxAttempts: 5 });
      });
      // A row as earlier releases wrote it: the whole WorkerDto in the payload.
      const earlier = workerDto({ input: { n: 4 }, tenant: 't1' });
      await database.db
        .insertInto('fw_process_work_item' as never)
        .values({
          idempotency_key: `${earlier.processId}:${earlier.processType}:${earlier.workerType}`,
          process_id: earlier.processId,
          process_type: earlier.processType,
          worker_type: earlier.workerType,
          tenant: earlier.tenant,
          payload: JSON.stringify(earlier),
        } as never)
        .execute();
      const claimed = await repo.claim(database.db as never, { workerId: 'w', limit: 10, leaseMillis: 60_000 });
      const nOf = (w: unknown) => ((w as WorkerDto).input as { n: number }).n;
      const byN = new Map(claimed.map((c) => [nOf(c.payload), c.payload]));
      expect([...byN.keys()].sort()).toEqual([1, 2, 3, 4]);
      for (const worker of [one, ...many, earlier]) expect(byN.get(nOf(worker))).toEqual(worker);
    });

    it('hands on a payload that is no JSON object as it is, for the worker to refuse', async () => {
      const { database } = getDb();
      // A JSON string too: the driver has parsed the jsonb already, a second parse would throw in the claim.
      for (const [i, payload] of ['[1,2]', '7', 'null', '"{not json"'].entries())
        await database.db
          .insertInto('fw_process_work_item' as never)
          .values({
            idempotency_key: `odd-${i}`,
            process_id: workerDto().processId,
            process_type: 'import',
            worker_type: 'EXECUTOR',
            tenant: 't1',
            payload,
          } as never)
          .execute();
      const claimed = await repo.claim(database.db as never, { workerId: 'w', limit: 10, leaseMillis: 60_000 });
      expect(claimed.map((c) => c.payload)).toEqual(expect.arrayContaining([[1, 2], 7, null, '{not json']));
      expect(claimed).toHaveLength(4);
    });

    it('distinguishes worker types of one process', async () => {
      const { database } = getDb();
      const splitter = workerDto({ workerType: 'SPLITTER' });
      await enqueue(database, [splitter, { ...splitter, workerType: 'AGGREGATOR' }]);
      expect(await itemsOf(database)).toHaveLength(2);
    });

    it('derives an item’s id from its key, and skips a key that a row of an earlier release holds', async () => {
      const { database } = getDb();
      const worker = workerDto();
      // Twice in one statement and once more alone: one row, whose id is the key's.
      await repo.enqueueMany(database.db as never, [worker, worker], { maxAttempts: 5 });
      expect(await repo.enqueue(database.db as never, worker, { maxAttempts: 5 })).toBe(false);
      const key = `${worker.processId}:import:EXECUTOR`;
      const { rows } = await sql<{ id: string; derived: string }>`
        select id, fw_work_item_id(${worker.processId}::uuid, ${key}) as derived from fw_process_work_item`.execute(
        database.db,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].id).toBe(rows[0].derived);
      // The id keeps the process id's first 6 bytes (time-ordered, so inserts stay at the index's
      // end), then the version nibble 8 that tells derived ids from those of earlier releases.
      expect(rows[0].id.slice(0, 13)).toBe(worker.processId.slice(0, 13));
      expect(rows[0].id[14]).toBe('8');

      // A row written before ids were derived: a random id, the same kind of key.
      const earlier = workerDto();
      await sql`insert into fw_process_work_item (idempotency_key, process_id, process_type, worker_type, tenant, payload)
        values (${`${earlier.processId}:import:EXECUTOR`}, ${earlier.processId}::uuid, 'import', 'EXECUTOR', 't1', '{}'::jsonb)`.execute(
        database.db,
      );
      expect(await repo.enqueue(database.db as never, earlier, { maxAttempts: 5 })).toBe(false);
      expect(await repo.enqueueMany(database.db as never, [earlier, workerDto()], { maxAttempts: 5 })).toBe(1);
      expect(await itemsOf(database)).toHaveLength(3);
      // Such rows stay unique among themselves through the partial index only they enter.
      await expect(
        sql`insert into fw_process_work_item (idempotency_key, process_id, process_type, worker_type, payload)
          values (${`${earlier.processId}:import:EXECUTOR`}, ${earlier.processId}::uuid, 'import', 'EXECUTOR', '{}'::jsonb)`.execute(
          database.db,
        ),
      ).rejects.toThrow(/fw_process_work_item_legacy_key_uq/);
    });

    it('refuses a transaction that is not a Kysely transaction', async () => {
      await expect(
        makeWorkItemStarter().startWorker(workerDto(), { transaction: {}, afterCommit: () => undefined }),
      ).rejects.toThrow(/Kysely transaction/);
    });
  });

  describe('claims and fencing', () => {
    it('claims in one statement, counts the attempt and re-claims after the lease expired', async () => {
      const { database } = getDb();
      const db = database.db as never;
      await enqueue(database, [workerDto(), workerDto(), workerDto()]);
      expect((await itemsOf(database)).map((i) => i.claimed_at)).toEqual([null, null, null]);
      const first = await repo.claim(db, { workerId: 'a', limit: 2, leaseMillis: 1000 });
      expect(first).toHaveLength(2);
      expect(first.every((i) => i.attempts === 1 && i.lockedBy === 'a')).toBe(true);
      // The claim time is kept (the health view's due → claim wait): the lease's start.
      const claimedAt = new Map((await itemsOf(database)).map((i) => [i.id, i.claimed_at]));
      for (const item of first)
        expect(new Date(claimedAt.get(item.id)!).getTime()).toBe(item.lockedUntil.getTime() - 1000);
      const rest = await repo.claim(db, { workerId: 'b', limit: 5, leaseMillis: 1000 });
      expect(rest.map((i) => i.id)).not.toContain(first[0]!.id);
      expect(rest).toHaveLength(1);
      expect(await repo.claim(db, { workerId: 'b', limit: 5, leaseMillis: 1000 })).toHaveLength(0);

      await sleep(1100);
      const again = await repo.claim(db, { workerId: 'b', limit: 5, leaseMillis: 10_000 });
      expect(again.map((i) => i.id).sort()).toEqual([...first, ...rest].map((i) => i.id).sort());
      expect(again.every((i) => i.attempts === 2 && i.lockedBy === 'b')).toBe(true);
      const reclaimedAt = new Map((await itemsOf(database)).map((i) => [i.id, i.claimed_at]));
      for (const item of again)
        expect(new Date(reclaimedAt.get(item.id)!).getTime()).toBe(item.lockedUntil.getTime() - 10_000);

      // a late acknowledgement of the first claim is refused; the new claimant completes
      expect(await repo.complete(db, first[0]!.id, first[0]!.claimToken)).toBe(false);
      expect(await repo.heartbeat(db, first[0]!.id, first[0]!.claimToken, 1000)).toBe(false);
      const current = again.find((i) => i.id === first[0]!.id)!;
      expect(await repo.complete(db, current.id, current.claimToken)).toBe(true);
      expect(await repo.complete(db, current.id, current.claimToken)).toBe(false);
      expect((await itemsOf(database)).find((i) => i.id === current.id)).toMatchObject({ status: 'SUCCESS' });
    });

    it('claims only the configured process types', async () => {
      const { database } = getDb();
      await enqueue(database, [workerDto({ processType: 'a' }), workerDto({ processType: 'b' })]);
      const claimed = await repo.claim(database.db as never, {
        workerId: 'w',
        limit: 5,
        leaseMillis: 1000,
        processTypes: ['b'],
      });
      expect(claimed.map((i) => i.processType)).toEqual(['b']);
    });

    it('refuses the late acknowledgement of a runner whose item was re-claimed by another', async () => {
      const { database } = getDb();
      const worker = workerDto();
      await enqueue(database, [worker]);
      const slow = deferred();
      const executions: string[] = [];
      const a = run({
        workerId: 'slow',
        heartbeat: false,
        handler: async () => {
          executions.push('slow');
          await slow.promise;
        },
      });
      await waitFor(() => executions.length === 1, 5000, 'slow claim');
      const b = run({
        workerId: 'fast',
        handler: async () => {
          executions.push('fast');
        },
      });
      await waitFor(
        async () => (await itemOf(database, worker.processId)).status === 'SUCCESS',
        5000,
        'fast completion',
      );
      slow.resolve();
      await waitFor(() => a.stats().staleAcks === 1, 5000, 'stale acknowledgement');
      expect(executions).toEqual(['slow', 'fast']);
      expect(b.stats().completed).toBe(1);
      expect(a.stats().completed).toBe(0);
      expect(await itemOf(database, worker.processId)).toMatchObject({
        status: 'SUCCESS',
        attempts: 2,
        locked_by: 'fast',
      });
    });

    it('keeps a long item leased with heartbeats, so no other runner takes it', async () => {
      const { database } = getDb();
      const worker = workerDto();
      await enqueue(database, [worker]);
      const executions: string[] = [];
      const a = run({
        workerId: 'long',
        leaseSeconds: 2,
        heartbeat: { intervalMillis: 250 },
        handler: async () => {
          executions.push('long');
          await sleep(3000);
        },
      });
      await waitFor(() => executions.length === 1, 5000, 'claim');
      run({
        workerId: 'other',
        handler: async () => {
          executions.push('other');
        },
      });
      await waitFor(() => a.stats().completed === 1, 8000, 'long completion');
      expect(executions).toEqual(['long']);
      expect(await itemOf(database, worker.processId)).toMatchObject({
        status: 'SUCCESS',
        attempts: 1,
        locked_by: 'long',
      });
    });
  });

  describe('failures', () => {
    it('retries with exponential backoff, ends DEAD after max attempts and reports the failure once', async () => {
      const { database } = getDb();
      const worker = workerDto({ workerType: 'SPLITTER' });
      await enqueue(database, [worker], makeWorkItemStarter({ maxAttempts: 3 }));
      const attempts: number[] = [];
      const reported: DeadWorkItem[] = [];
      const runner = run({
        backoff: { baseMillis: 150, maxMillis: 10_000 },
        handler: async () => {
          attempts.push(Date.now());
          throw new Error(`boom ${attempts.length}`);
        },
        onDead: async (item) => {
          reported.push(item);
        },
      });
      await waitFor(
        async () => (await itemOf(database, worker.processId)).failure_reported_at !== null,
        8000,
        'DEAD and reported',
      );
      expect(attempts).toHaveLength(3);
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(140);
      expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(290);
      expect(reported).toHaveLength(1);
      expect(reported[0]).toMatchObject({
        processId: worker.processId,
        workerType: 'SPLITTER',
        tenant: 't1',
        attempts: 3,
        error: 'boom 3',
      });
      expect(reported[0]!.stackTrace).toContain('boom 3');
      expect(await itemOf(database, worker.processId)).toMatchObject({
        status: 'DEAD',
        attempts: 3,
        last_error: 'boom 3',
      });
      expect(runner.stats()).toMatchObject({ retried: 2, dead: 1, completed: 0 });
      await sleep(200);
      expect(reported).toHaveLength(1);
    });

    it('retries a failed report until it reaches the process', async () => {
      const { database } = getDb();
      const worker = workerDto();
      await enqueue(database, [worker], makeWorkItemStarter({ maxAttempts: 1 }));
      let calls = 0;
      run({
        leaseSeconds: 0.3,
        handler: async () => {
          throw new Error('always');
        },
        onDead: async () => {
          calls++;
          if (calls === 1) throw new Error('process service unavailable');
        },
      });
      await waitFor(
        async () => (await itemOf(database, worker.processId)).failure_reported_at !== null,
        8000,
        'report retried',
      );
      expect(calls).toBe(2);
      expect(await itemOf(database, worker.processId)).toMatchObject({ status: 'DEAD', attempts: 1 });
    });

    it('makes an item whose every attempt crashed DEAD without running it again', async () => {
      const { database } = getDb();
      const worker = workerDto();
      await enqueue(database, [worker], makeWorkItemStarter({ maxAttempts: 1 }));
      expect(await repo.claim(database.db as never, { workerId: 'crashed', limit: 1, leaseMillis: 100 })).toHaveLength(
        1,
      );
      await sleep(150);
      const executed: WorkerDto[] = [];
      const reported: DeadWorkItem[] = [];
      run({
        handler: async (w) => {
          executed.push(w);
        },
        onDead: async (item) => {
          reported.push(item);
        },
      });
      await waitFor(() => reported.length === 1, 5000, 'report');
      expect(executed).toHaveLength(0);
      expect(reported[0]!.error).toMatch(/lease expired/);
      expect(await itemOf(database, worker.processId)).toMatchObject({ status: 'DEAD' });
    });

    it('makes an item DEAD at once when the handler already reported the failure', async () => {
      const { database } = getDb();
      const worker = workerDto();
      await enqueue(database, [worker]);
      let reports = 0;
      run({
        handler: async () => ({ reportedFailure: 'malformed payload' }),
        onDead: async () => {
          reports++;
        },
      });
      await waitFor(async () => (await itemOf(database, worker.processId)).status === 'DEAD', 5000, 'DEAD');
      const item = await itemOf(database, worker.processId);
      expect(item).toMatchObject({ attempts: 1, last_error: 'malformed payload' });
      expect(item.failure_reported_at).not.toBeNull();
      expect(reports).toBe(0);
    });
  });

  describe('runner', () => {
    it('runs many items with concurrency and hands each its WorkerDto', async () => {
      const { database } = getDb();
      const workers = Array.from({ length: 20 }, (_, i) => workerDto({ input: { i } }));
      await enqueue(database, workers);
      const seen: unknown[] = [];
      let active = 0;
      let peak = 0;
      const runner = run({
        concurrency: 4,
        batchSize: 3,
        handler: async (w) => {
          active++;
          peak = Math.max(peak, active);
          await sleep(20);
          seen.push(w.input);
          active--;
        },
      });
      await waitFor(() => runner.stats().completed === 20, 10_000, 'all items');
      expect(seen).toHaveLength(20);
      expect(new Set(seen.map((s) => JSON.stringify(s))).size).toBe(20);
      expect(peak).toBeLessThanOrEqual(4);
      expect(peak).toBeGreaterThan(1);
      expect((await itemsOf(database)).every((i) => i.status === 'SUCCESS')).toBe(true);
    });

    it('stops gracefully: finishes what it can and releases the rest', async () => {
      const { database } = getDb();
      const quick = workerDto({ input: 'quick' });
      const stuck = workerDto({ input: 'stuck' });
      await enqueue(database, [quick, stuck]);
      const started: unknown[] = [];
      const never = deferred();
      const runner = run({
        concurrency: 2,
        handler: async (w) => {
          started.push(w.input);
          if (w.input === 'stuck') await never.promise;
          else await sleep(100);
        },
      });
      await waitFor(() => started.length === 2, 5000, 'both started');
      const result = await runner.stop({ timeoutMillis: 1500 });
      expect(result).toEqual({ finished: 1, released: 1 });
      expect(await itemOf(database, quick.processId)).toMatchObject({ status: 'SUCCESS' });
      expect(await itemOf(database, stuck.processId)).toMatchObject({
        status: 'PENDING',
        attempts: 0,
        locked_by: null,
        claim_token: null,
      });
      never.resolve();
      await waitFor(() => runner.stats().staleAcks === 1, 5000, 'refused late completion');
      expect(await itemOf(database, stuck.processId)).toMatchObject({ status: 'PENDING' });
    });

    it('wakes on demand instead of waiting for the next poll', async () => {
      const { database } = getDb();
      const starter = makeWorkItemStarter();
      const done: string[] = [];
      const runner = run({
        pollIntervalMillis: 60_000,
        handler: async (w) => {
          done.push(w.processId);
        },
      });
      starter.onEnqueued(() => runner.wake());
      await sleep(50); // the first (empty) poll has happened; the next is a minute away
      const worker = workerDto();
      await enqueue(database, [worker], starter);
      await waitFor(() => done.length === 1, 3000, 'woken runner');
      expect(done).toEqual([worker.processId]);
    });
  });

  it('reports the queue depth by status', async () => {
    const { database } = getDb();
    const db = database.db as never;
    expect(await queueDepth(database)).toEqual({
      pending: 0,
      due: 0,
      running: 0,
      expiredLeases: 0,
      success: 0,
      dead: 0,
      unreportedDead: 0,
      oldestDueAgeSeconds: null,
    });
    await enqueue(
      database,
      Array.from({ length: 5 }, () => workerDto()),
    );
    await sleep(30);
    const [a, b, c] = await repo.claim(db, { workerId: 'w', limit: 3, leaseMillis: 60_000 });
    await repo.complete(db, a!.id, a!.claimToken);
    await repo.markDead(db, b!.id, b!.claimToken, 'x', { reported: false, leaseMillis: 1000 });
    await repo.retry(db, c!.id, c!.claimToken, 'y', 60_000);
    const [d] = await repo.claim(db, { workerId: 'w', limit: 1, leaseMillis: 1 });
    expect(d).toBeDefined();
    await sleep(20);
    const depth = await queueDepth(database);
    expect(depth).toMatchObject({
      pending: 2,
      due: 1,
      running: 1,
      expiredLeases: 1,
      success: 1,
      dead: 1,
      unreportedDead: 1,
    });
    expect(depth.oldestDueAgeSeconds).toBeGreaterThan(0);
    expect(await queueDepth(database, { processTypes: ['other'] })).toMatchObject({ pending: 0, running: 0 });
  });
});
