/**
 * A split event inserts its children before it locks the parent, so transactions counting finished
 * children on the same parent do not wait for the split's inserts (PostgreSQL only: it needs a
 * second session holding the parent's lock).
 */
import { isFwError } from '@fw/core';
import { processDb } from '@fw/process-service';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import { create, get, makeHarness, send, type Harness } from './support';

const describePostgres = postgresServerUrl() ? describe : describe.skip;

describePostgres('split events and the parent lock [postgres]', () => {
  let testDb: TestDatabase;
  let h: Harness;
  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    h = makeHarness(testDb);
  }, 120_000);
  afterAll(() => testDb?.dispose(), 60_000);

  const chunks = (n: number) => Array.from({ length: n }, (_, i) => ({ processType: 'chunk', args: { i } }));

  /**
   * Holds the parent's row lock (as a transaction counting children holds it) in a transaction of
   * its own; `inside` runs while it is held, `release` commits.
   */
  function holdParentLock(
    parentId: string,
    inside: (trx: ReturnType<typeof processDb>) => Promise<void> = async () => undefined,
  ): { locked: Promise<void>; release(): void; done: Promise<void> } {
    let release: () => void = () => undefined;
    let locked: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const lockedPromise = new Promise<void>((resolve) => (locked = resolve));
    const done = processDb(testDb.database)
      .transaction()
      .execute(async (trx) => {
        await sql`select id from fw_process where id = ${parentId} for no key update`.execute(trx);
        await inside(trx);
        locked();
        await gate;
      });
    return { locked: lockedPromise, release: () => release(), done };
  }

  /** The session of this database waiting for a row lock, with what it holds on fw_process. */
  async function waitingSplit(): Promise<{ pid: number; insertedIntoProcesses: boolean } | undefined> {
    const { rows } = await sql<{ pid: number; inserted: boolean }>`
      select a.pid, exists (select 1 from pg_locks l where l.pid = a.pid and l.relation = 'fw_process'::regclass and l.mode = 'RowExclusiveLock') as inserted
        from pg_stat_activity a
       where a.datname = current_database() and a.wait_event_type = 'Lock'`.execute(testDb.database.db);
    return rows[0] === undefined ? undefined : { pid: rows[0].pid, insertedIntoProcesses: rows[0].inserted };
  }

  async function untilWaiting(): Promise<{ pid: number; insertedIntoProcesses: boolean }> {
    for (let i = 0; i < 200; i++) {
      const w = await waitingSplit();
      if (w !== undefined) return w;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the split never waited for the parent lock');
  }

  it('inserts the children before it waits for the parent, then counts them once the lock is free', async () => {
    const parent = await create(h.manager, 'batch');
    const holder = holdParentLock(parent.id);
    await holder.locked;
    const split = send(h.manager, parent.id, 'splitPartiallyDone', { subProcesses: chunks(3) });
    const waiting = await untilWaiting();
    // The children are written (row-exclusive lock on fw_process) while the parent is still held.
    expect(waiting.insertedIntoProcesses).toBe(true);
    holder.release();
    await holder.done;
    const after = await split;
    expect(after.numSubProcesses).toBe(3);
    const tree = await h.manager.getProcessTree(parent.id, { tenant: null });
    expect(tree.slice(1).map((c) => c.parentId)).toEqual([parent.id, parent.id, parent.id]);
  });

  it('refuses the split (422) and keeps none of its children when the parent left the state meanwhile', async () => {
    const parent = await create(h.manager, 'batch');
    const holder = holdParentLock(parent.id, async (trx) => {
      await sql`update fw_process set state_id = 'PROCESSED', version = version + 1 where id = ${parent.id}`.execute(
        trx,
      );
    });
    await holder.locked;
    const split = send(h.manager, parent.id, 'splitPartiallyDone', { subProcesses: chunks(2) }).then(
      () => undefined,
      (err: unknown) => err,
    );
    await untilWaiting();
    holder.release();
    await holder.done;
    const refusal = await split;
    expect(isFwError(refusal) && refusal.code).toBe(422);
    expect(await h.manager.getProcessTree(parent.id, { tenant: null })).toHaveLength(1);
    expect((await get(h.manager, parent.id)).numSubProcesses).toBe(0);
  });
});
