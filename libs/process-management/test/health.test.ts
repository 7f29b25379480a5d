import type { Process } from '@fw/process-api';
import { processDb } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import { request } from './contract';
import { API, auth, makeAdminHarness, runTree, seedDefinitions, T1, T2, type AdminHarness } from './support';

interface HealthRow {
  processType: string;
  succeeded: number;
  failed: number;
  throughput: { start: string; succeeded: number; failed: number }[];
  backlog: { workerType: string; pending: number; running: number; dead: number }[];
  oldestDueSeconds: number | null;
  waitP50Seconds: number | null;
  waitP95Seconds: number | null;
  waitSamples: number;
}

/**
 * A work item as the JDBC starter writes it, its times given as seconds from the database's now
 * (negative: in the past).
 */
async function addWorkItem(
  h: { database: Parameters<typeof processDb>[0] },
  item: {
    processId: string;
    processType: string;
    tenant: string;
    status: 'PENDING' | 'RUNNING' | 'SUCCESS' | 'DEAD';
    runAt: number;
    claimedAt?: number;
    finishedAt?: number;
    key: string;
  },
): Promise<void> {
  const at = (seconds: number | undefined) =>
    seconds === undefined ? sql`null` : sql`now() + make_interval(secs => ${seconds})`;
  await sql`
    insert into fw_process_work_item
      (idempotency_key, process_id, process_type, worker_type, tenant, payload, status, run_at, claimed_at,
       finished_at, locked_until)
    values (${item.key}, ${item.processId}, ${item.processType}, ${`${item.processType}-worker`}, ${item.tenant}, '{}',
            ${item.status}, now() + make_interval(secs => ${item.runAt}), ${at(item.claimedAt)}, ${at(item.finishedAt)},
            ${item.status === 'RUNNING' ? sql`now() + interval '1 minute'` : sql`null`})`.execute(
    processDb(h.database),
  );
}

describeEachDatabase('administration API: health', (getDb) => {
  let h: AdminHarness;
  let root: Process;
  let children: string[];

  beforeAll(async () => {
    const { database } = getDb();
    await seedDefinitions(database);
    h = makeAdminHarness(getDb());
    // A small fan-out: wordcount → two chunks → aggregated → the successor report; then a single that fails.
    root = (await h.manager.createProcess({ processDefName: 'wordcount', args: { text: 'a b c' } }, { tenant: T1 }))
      .mutatedEntity;
    ({ children } = await runTree(h.manager, database, root, ['a b', 'c']));
    const single = (await h.manager.createProcess({ processDefName: 'single', args: {} }, { tenant: T1 }))
      .mutatedEntity;
    await h.manager.sendEvent(single.id, 'doneWithErrors', { errors: ['broken'] }, { tenant: T1 });
    await h.manager.createProcess({ processDefName: 'single', args: { other: true } }, { tenant: T2 });
    // Completion events older than the window are not counted.
    await sql`insert into fw_process_completion_event
                (id, process_id, process_type, tenant, state, successful, payload, generated_time)
              values (gen_random_uuid(), ${root.id}, 'chunk', ${T1}, 'PROCESSED', true, '{}', now() - interval '2 hours')`.execute(
      processDb(database),
    );
    // The chunks' work items: two waiting (one due 120 s ago, one due later), one running, one
    // dead, three claimed 4, 8 and 12 s after they were due (and finished later), one finished
    // 20 s after it was due without a claim time (written before the column: counted due →
    // finished), one finished before the window.
    const items = [
      { status: 'PENDING', runAt: -120 },
      { status: 'PENDING', runAt: 600 },
      { status: 'RUNNING', runAt: -5 },
      { status: 'DEAD', runAt: -50, finishedAt: -40 },
      { status: 'SUCCESS', runAt: -110, claimedAt: -106, finishedAt: -100 },
      { status: 'SUCCESS', runAt: -220, claimedAt: -212, finishedAt: -200 },
      { status: 'SUCCESS', runAt: -330, claimedAt: -318, finishedAt: -300 },
      { status: 'SUCCESS', runAt: -400, finishedAt: -380 },
      { status: 'SUCCESS', runAt: -7300, finishedAt: -7200 },
    ] as const;
    for (const [i, item] of items.entries())
      await addWorkItem(
        { database },
        { ...item, processId: children[i % children.length], processType: 'chunk', tenant: T1, key: `k-${i}` },
      );
    await addWorkItem(
      { database },
      { status: 'PENDING', runAt: -900, processId: root.id, processType: 'chunk', tenant: T2, key: 'other-tenant' },
    );
  });

  async function health(tenant: string) {
    const res = await request(h.app).get(`${API}/health`).set(auth(tenant));
    expect(res.status).toBe(200);
    return res.body as { tenant: string; generatedAt: string; bucketSeconds: number; processTypes: HealthRow[] };
  }

  it('counts the processes finished in the last hour per type and outcome, in 5-minute buckets', async () => {
    const body = await health(T1);
    expect(body).toMatchObject({ tenant: T1, windowSeconds: 3600, bucketSeconds: 300 });
    const byType = Object.fromEntries(body.processTypes.map((r) => [r.processType, r]));
    expect(Object.keys(byType)).toEqual(['chunk', 'report', 'single', 'wordcount']);
    expect(byType.chunk).toMatchObject({ succeeded: 2, failed: 0 });
    expect(byType.wordcount).toMatchObject({ succeeded: 1, failed: 0 });
    expect(byType.report).toMatchObject({ succeeded: 1, failed: 0 });
    expect(byType.single).toMatchObject({ succeeded: 0, failed: 1 });
    for (const row of body.processTypes) {
      expect(row.throughput).toHaveLength(12);
      // Everything finished just now: the newest bucket holds it all.
      expect(row.throughput[11]).toMatchObject({ succeeded: row.succeeded, failed: row.failed });
      expect(row.throughput.slice(0, 11).every((b) => b.succeeded === 0 && b.failed === 0)).toBe(true);
      const starts = row.throughput.map((b) => Date.parse(b.start));
      expect(starts[1] - starts[0]).toBe(300_000);
      expect(Date.parse(body.generatedAt) - starts[11]).toBe(300_000);
    }
  });

  it('shows the backlog now, the oldest due age and the due-to-claim percentiles of the last hour', async () => {
    const chunk = (await health(T1)).processTypes.find((r) => r.processType === 'chunk') as HealthRow;
    expect(chunk.backlog).toEqual([{ workerType: 'chunk-worker', pending: 2, running: 1, dead: 1 }]);
    expect(chunk.oldestDueSeconds).toBeGreaterThanOrEqual(120);
    expect(chunk.oldestDueSeconds).toBeLessThan(180);
    // Waits 4, 8, 12 (claimed) and 20 (due → finished): p50 between 8 and 12, p95 at 0.85 of 12 → 20.
    expect(chunk.waitSamples).toBe(4);
    expect(chunk.waitP50Seconds).toBeCloseTo(10, 3);
    expect(chunk.waitP95Seconds).toBeCloseTo(18.8, 3);
    const single = (await health(T1)).processTypes.find((r) => r.processType === 'single') as HealthRow;
    expect(single).toMatchObject({ backlog: [], oldestDueSeconds: null, waitP50Seconds: null, waitSamples: 0 });
  });

  it('answers only the tenant of the header', async () => {
    const body = await health(T2);
    expect(body.tenant).toBe(T2);
    expect(body.processTypes.map((r) => [r.processType, r.succeeded, r.failed, r.backlog])).toEqual([
      ['chunk', 0, 0, [{ workerType: 'chunk-worker', pending: 1, running: 0, dead: 0 }]],
    ]);
    expect(body.processTypes[0].oldestDueSeconds).toBeGreaterThanOrEqual(900);
  });

  it('serves the same answer for a few seconds', async () => {
    const first = await health(T1);
    await h.manager
      .createProcess({ processDefName: 'single', args: {} }, { tenant: T1 })
      .then(({ mutatedEntity }) =>
        h.manager.sendEvent(mutatedEntity.id, 'doneSuccessfully', { output: {} }, { tenant: T1 }),
      );
    const second = await health(T1);
    expect(second).toEqual(first);
  });

  it('needs a credential and the tenant header', async () => {
    expect((await request(h.app).get(`${API}/health`)).status).toBe(401);
    const { 'x-fw-tenant-id': _tenant, ...keyOnly } = auth();
    expect((await request(h.app).get(`${API}/health`).set(keyOnly)).status).toBe(400);
  });
});
