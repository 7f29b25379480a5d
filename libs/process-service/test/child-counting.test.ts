import { isFwError } from '@fw/core';
import { processDb } from '@fw/process-service';
import { sql } from 'kysely';
import { childResultPage } from '../src/repository/child-result-reader';
import { describeEachDatabase } from '@fw/test-support';
import { create, get, makeHarness, send, type Harness } from './support';

describeEachDatabase('child completion counting', (getDb) => {
  let h: Harness;
  beforeAll(() => {
    h = makeHarness(getDb());
  });

  async function batchWith(n: number, splitDone = true): Promise<{ parentId: string; childIds: string[] }> {
    const parent = await create(h.manager, 'batch');
    const subProcesses = Array.from({ length: n }, (_, i) => ({ processType: 'chunk', args: { i } }));
    await send(h.manager, parent.id, splitDone ? 'splitDone' : 'splitPartiallyDone', { subProcesses });
    const tree = await h.manager.getProcessTree(parent.id, { tenant: null });
    return { parentId: parent.id, childIds: tree.slice(1).map((c) => c.id) };
  }

  const reports = async (parentId: string) =>
    processDb(getDb().database)
      .selectFrom('fw_process_child_report')
      .selectAll()
      .where('parent_id', '=', parentId)
      .execute();

  /** Children of `parentId` marked counted inline (by the save of their terminal state). */
  const marked = async (parentId: string) =>
    (
      await processDb(getDb().database)
        .selectFrom('fw_process')
        .select('id')
        .where('parent_id', '=', parentId)
        .where('counted_inline', '=', true)
        .execute()
    ).map((r) => r.id);

  it('counts a child reported twice (internally, then externally) once', async () => {
    const { parentId, childIds } = await batchWith(2, false);
    const [a] = childIds;
    await send(h.manager, a!, 'doneSuccessfully', { output: 'a' });
    const before = await get(h.manager, parentId);
    expect(before.numCompletedSubProcesses).toBe(1);
    const again = await send(h.manager, parentId, 'subProcessDoneSuccessfully', { childId: a, output: 'a' });
    expect(again.numCompletedSubProcesses).toBe(1);
    expect(again.version).toBe(before.version);
    // The engine's count is the child's mark, not a row; the HTTP report found the mark and wrote nothing.
    expect(await marked(parentId)).toEqual([a]);
    expect(await reports(parentId)).toEqual([]);
  });

  it('counts an external report once and ignores the child completing afterwards', async () => {
    const { parentId, childIds } = await batchWith(2);
    const [a, b] = childIds;
    await send(h.manager, parentId, 'subProcessDoneWithErrors', { childId: a, errors: ['x'] });
    await send(h.manager, parentId, 'subProcessDoneWithErrors', { childId: a, errors: ['x'] });
    await send(h.manager, a!, 'doneWithErrors', { errors: ['x'] });
    const parent = await get(h.manager, parentId);
    expect(parent.numCompletedSubProcesses).toBe(1);
    expect(parent.errors).toHaveLength(1);
    // The report row records the count; the child's own completion found it and left no mark.
    expect((await reports(parentId)).map((r) => r.child_id)).toEqual([a]);
    expect(await marked(parentId)).toEqual([]);
    await send(h.manager, b!, 'doneSuccessfully', {});
    const ready = await get(h.manager, parentId);
    expect(ready.numCompletedSubProcesses).toBe(2);
    expect(ready.state.stateId).toBe('AGGREGATION_PENDING');
    // a duplicate after the parent moved on is still acknowledged without change
    const late = await send(h.manager, parentId, 'subProcessDoneSuccessfully', { childId: b });
    expect(late).toEqual(ready);
  });

  it('refuses a report for a process that is not a child (400 P007)', async () => {
    const { parentId } = await batchWith(1);
    const stranger = await create(h.manager, 'leafJob');
    await expect(
      send(h.manager, parentId, 'subProcessDoneSuccessfully', { childId: stranger.id }),
    ).rejects.toMatchObject({ code: 400, subErrorCode: 'P007' });
    expect((await get(h.manager, parentId)).numCompletedSubProcesses).toBe(0);
  });

  it('a parent whose state refuses the report counts nothing and keeps no report row (internal and external)', async () => {
    const { parentId, childIds } = await batchWith(2);
    const [a, b] = childIds;
    // An operator forced the parent to an end state while its children still ran.
    await processDb(getDb().database)
      .updateTable('fw_process')
      .set({ state_id: 'PROCESSED' })
      .where('id', '=', parentId)
      .execute();
    const leaf = await send(h.manager, a!, 'doneSuccessfully', { output: 'a' });
    expect(leaf.state.stateId).toBe('PROCESSED'); // the child's own step still counts for the child
    await expect(
      send(h.manager, parentId, 'subProcessDoneSuccessfully', { childId: b, output: 'b' }),
    ).rejects.toMatchObject({ code: 422, subErrorCode: 'P010' });
    const parent = await get(h.manager, parentId);
    expect(parent.numCompletedSubProcesses).toBe(0);
    expect(await reports(parentId)).toEqual([]);
    expect(await marked(parentId)).toEqual([]);
    // Put back, the parent counts both reports again: nothing was recorded as counted meanwhile.
    await processDb(getDb().database)
      .updateTable('fw_process')
      .set({ state_id: 'SUB_PROCESSES_PENDING' })
      .where('id', '=', parentId)
      .execute();
    await send(h.manager, parentId, 'subProcessDoneSuccessfully', { childId: a, output: 'a' });
    await send(h.manager, parentId, 'subProcessDoneSuccessfully', { childId: b, output: 'b' });
    expect((await get(h.manager, parentId)).numCompletedSubProcesses).toBe(2);
    expect(await reports(parentId)).toHaveLength(2);
  });

  it('refuses a report to a parent that does not exist (404) before anything is written', async () => {
    await expect(
      send(h.manager, '7c9e6679-7425-40de-944b-e07fc1f90ae7', 'subProcessDoneSuccessfully', {
        childId: '8d0e6679-7425-40de-944b-e07fc1f90ae8',
      }),
    ).rejects.toMatchObject({ code: 404 });
    const rows = await processDb(getDb().database)
      .selectFrom('fw_process_child_report')
      .selectAll()
      .where('child_id', '=', '8d0e6679-7425-40de-944b-e07fc1f90ae8')
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses a second doneSuccessfully on the child (422) and counts it once', async () => {
    const { parentId, childIds } = await batchWith(2);
    await send(h.manager, childIds[0]!, 'doneSuccessfully', {});
    await expect(send(h.manager, childIds[0]!, 'doneSuccessfully', {})).rejects.toMatchObject({
      code: 422,
      subErrorCode: 'P010',
    });
    expect((await get(h.manager, parentId)).numCompletedSubProcesses).toBe(1);
  });

  it('counts 50 children completing concurrently exactly once each and aggregates once', async () => {
    const { parentId, childIds } = await batchWith(50);
    expect(childIds).toHaveLength(50);
    const results = await Promise.allSettled(
      childIds.map((id, i) => send(h.manager, id, 'doneSuccessfully', { output: i })),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const parent = await get(h.manager, parentId);
    expect(parent.numSubProcesses).toBe(50);
    expect(parent.numCompletedSubProcesses).toBe(50);
    expect(parent.state.stateId).toBe('AGGREGATION_PENDING');
    expect(h.starter.launchesOf(parentId, 'AGGREGATOR')).toHaveLength(1);
    expect(h.starter.launchesOf(parentId, 'AGGREGATOR')[0]?.subProcessResults).toHaveLength(50);
    expect((await marked(parentId)).sort()).toEqual([...childIds].sort());
    expect(await reports(parentId)).toEqual([]);
  });

  it('counts concurrent duplicate deliveries (child event and parent reports) once', async () => {
    const { parentId, childIds } = await batchWith(10);
    const calls = childIds.flatMap((id) => [
      send(h.manager, id, 'doneSuccessfully', { output: id }),
      send(h.manager, id, 'doneSuccessfully', { output: id }),
      send(h.manager, parentId, 'subProcessDoneSuccessfully', { childId: id, output: id }),
      send(h.manager, parentId, 'subProcessDoneSuccessfully', { childId: id, output: id }),
    ]);
    const results = await Promise.allSettled(calls);
    for (const r of results) {
      if (r.status === 'rejected') {
        // the only acceptable refusal: a second doneSuccessfully on a child already PROCESSED
        expect(isFwError(r.reason) && r.reason.code === 422).toBe(true);
      }
    }
    const parent = await get(h.manager, parentId);
    expect(parent.numCompletedSubProcesses).toBe(10);
    expect(parent.state.stateId).toBe('AGGREGATION_PENDING');
    expect(h.starter.launchesOf(parentId, 'AGGREGATOR')).toHaveLength(1);
    for (const id of childIds) expect((await get(h.manager, id)).state.stateId).toBe('PROCESSED');
    // Each child's count is recorded once: by a report row or by its mark, never both.
    const rowed = (await reports(parentId)).map((r) => r.child_id);
    const records = [...rowed, ...(await marked(parentId))].sort();
    expect(records).toEqual([...childIds].sort());
  });

  it('does not count a child again whose report row was written before its counted_inline mark existed', async () => {
    // A child counted before the upgrade has a report row and no mark; an HTTP report of it
    // conflicts with the row, and a child that then finishes through the engine is not counted again.
    const { parentId, childIds } = await batchWith(2, false);
    const [a] = childIds;
    await processDb(getDb().database)
      .insertInto('fw_process_child_report')
      .values({ child_id: a!, parent_id: parentId, successful: true, reported_time: new Date() })
      .execute();
    await send(h.manager, parentId, 'subProcessDoneSuccessfully', { childId: a, output: 'a' });
    await send(h.manager, a!, 'doneSuccessfully', { output: 'a' });
    expect((await get(h.manager, parentId)).numCompletedSubProcesses).toBe(0);
    expect(await marked(parentId)).toEqual([]);
  });

  it("pages an aggregator's results: terminal children only, in creation order, however the pages fall", async () => {
    const { parentId, childIds } = await batchWith(7, false);
    const [c0, , c2, c3, , c5] = childIds;
    await send(h.manager, c0!, 'doneSuccessfully', { output: { i: 0 } });
    await send(h.manager, c2!, 'doneSuccessfully', { output: { i: 2 } });
    await send(h.manager, c3!, 'doneSuccessfully', { output: null });
    await send(h.manager, c5!, 'doneWithErrors', { errors: ['x'] });
    const pages: { processId: string; stateId: string; successful: boolean; output: unknown }[][] = [];
    for await (const page of h.manager.childResultPages(parentId, 2)) pages.push([...page]);
    expect(pages.flat()).toEqual([
      { processId: c0, processType: 'chunk', stateId: 'PROCESSED', successful: true, output: { i: 0 } },
      { processId: c2, processType: 'chunk', stateId: 'PROCESSED', successful: true, output: { i: 2 } },
      { processId: c3, processType: 'chunk', stateId: 'PROCESSED', successful: true, output: null },
      { processId: c5, processType: 'chunk', stateId: 'PROCESSED_WITH_ERRORS', successful: false, output: null },
    ]);
    expect(pages.every((page) => page.length <= 2)).toBe(true);
  });

  it("reads a page in the caller's transaction held to the index, and leaves that transaction's planner settings as they were", async () => {
    const { parentId, childIds } = await batchWith(3, false);
    await send(h.manager, childIds[1]!, 'doneSuccessfully', { output: 1 });
    const db = processDb(getDb().database);
    const setting = async (trx: typeof db) =>
      (
        await sql<{
          bitmap: string;
          seq: string;
        }>`select current_setting('enable_bitmapscan') as bitmap, current_setting('enable_seqscan') as seq`.execute(trx)
      ).rows[0];
    const seen = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const page = await childResultPage(trx, parentId, 10);
      return { page, after: await setting(trx) };
    });
    expect(seen.page.results.map((r) => r.processId)).toEqual([childIds[1]]);
    expect(seen.after).toEqual({ bitmap: 'on', seq: 'off' });
  });
});
