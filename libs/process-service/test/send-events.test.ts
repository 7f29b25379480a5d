import { isFwError } from '@fw/core';
import { ProcessStates } from '@fw/process-api';
import { makeProcessBatchRepository, processDb } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import { create, get, makeHarness, send, type Harness } from './support';

describeEachDatabase('sendEvents (the batched event path)', (getDb) => {
  let h: Harness;
  beforeAll(() => {
    h = makeHarness(getDb());
  });

  async function batchWith(n: number): Promise<{ parentId: string; childIds: string[] }> {
    const parent = await create(h.manager, 'batch');
    await send(h.manager, parent.id, 'splitDone', {
      subProcesses: Array.from({ length: n }, (_, i) => ({ processType: 'chunk', args: { i } })),
    });
    const tree = await h.manager.getProcessTree(parent.id, { tenant: null });
    return { parentId: parent.id, childIds: tree.slice(1).map((c) => c.id) };
  }

  const completionEvents = async (ids: string[]) =>
    Number(
      (
        await sql<{
          n: string;
        }>`select count(*) as n from fw_process_completion_event where process_id = any(${ids}::uuid[])`.execute(
          processDb(getDb().database),
        )
      ).rows[0].n,
    );

  it('completes many leaves in one call, counts each once on the parent and aggregates once', async () => {
    const { parentId, childIds } = await batchWith(5);
    const results = await h.manager.sendEvents(
      childIds.map((id, i) => ({ id, eventId: 'doneSuccessfully', payload: { output: i }, tenant: null })),
    );
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true, true]);
    for (const [i, r] of results.entries()) {
      if (!r.ok) throw new Error('unexpected');
      expect(r.response.mutatedEntity).toMatchObject({
        id: childIds[i],
        output: i,
        state: { stateId: ProcessStates.PROCESSED },
        version: 1,
      });
    }
    const parent = await get(h.manager, parentId);
    expect(parent).toMatchObject({
      numCompletedSubProcesses: 5,
      state: { stateId: ProcessStates.AGGREGATION_PENDING },
    });
    expect(h.starter.launchesOf(parentId, 'AGGREGATOR' as never)).toHaveLength(1);
    expect(await completionEvents(childIds)).toBe(5);
    const stored = await get(h.manager, childIds[0]);
    expect(stored).toMatchObject({
      output: 0,
      input: { i: 0 },
      state: { stateId: ProcessStates.PROCESSED },
      completedPercent: 100,
    });
  });

  it('gives each event its own outcome: refused, unknown and foreign-tenant events fail alone', async () => {
    const { childIds } = await batchWith(3);
    await send(h.manager, childIds[0], 'doneSuccessfully', { output: 'first' });
    const missing = '00000000-0000-4000-8000-000000000000';
    const results = await h.manager.sendEvents([
      { id: childIds[0], eventId: 'doneSuccessfully', payload: { output: 'again' }, tenant: null },
      {
        id: childIds[1],
        eventId: 'doneWithErrors',
        payload: { errors: ['boom'], exceptionMessage: 'boom' },
        tenant: null,
      },
      { id: missing, eventId: 'doneSuccessfully', payload: {}, tenant: null },
      { id: childIds[2], eventId: 'doneSuccessfully', payload: {}, tenant: 'someone-else' },
      { id: 'not-a-uuid', eventId: 'doneSuccessfully', payload: {}, tenant: null },
    ]);
    const codes = results.map((r) => (r.ok ? 'ok' : isFwError(r.error) ? r.error.code : 'other'));
    expect(codes).toEqual([422, 'ok', 404, 404, 404]);
    const failed = await get(h.manager, childIds[1]);
    expect(failed.state.stateId).toBe(ProcessStates.PROCESSED_WITH_ERRORS);
    expect(failed.errors).toHaveLength(1);
    expect(failed.errors[0]).toMatchObject({ processId: childIds[1], errors: ['boom'], exceptionMessage: 'boom' });
    expect((await get(h.manager, childIds[0])).output).toBe('first');
    expect((await get(h.manager, childIds[2])).state.stateId).toBe(ProcessStates.EXECUTING);
  });

  it('loads a batch of processes with each one’s own errors, in the order they were recorded', async () => {
    const { parentId, childIds } = await batchWith(2);
    const db = processDb(getDb().database);
    await sql`insert into fw_process_error (owner_id, process_id, time_of_completion, errors, exception_message, stack_trace)
              values (${parentId}, ${childIds[0]}, now(), '["first"]', 'First', null),
                     (${parentId}, ${childIds[1]}, now(), '["second"]', null, 'at x'),
                     (${childIds[1]}, ${childIds[1]}, now(), '["own"]', 'Own', null)`.execute(db);
    const ids = [parentId, ...childIds];
    for (const forUpdate of [false, true]) {
      const loaded = await db
        .transaction()
        .execute((trx) => makeProcessBatchRepository().findMany(trx, ids, forUpdate));
      expect([...loaded.keys()].sort()).toEqual([...ids].sort());
      expect(loaded.get(parentId)!.errors).toMatchObject([
        { processId: childIds[0], errors: ['first'], exceptionMessage: 'First' },
        { processId: childIds[1], errors: ['second'], stackTrace: 'at x' },
      ]);
      expect(loaded.get(childIds[0])!.errors).toEqual([]);
      expect(loaded.get(childIds[1])!.errors).toMatchObject([{ processId: childIds[1], errors: ['own'] }]);
    }
  });

  it('sends split events and several events for one process one by one, in order', async () => {
    const parent = await create(h.manager, 'batch');
    const { childIds } = await batchWith(1);
    const results = await h.manager.sendEvents([
      {
        id: parent.id,
        eventId: 'splitPartiallyDone',
        payload: { subProcesses: [{ processType: 'chunk', args: {} }] },
        tenant: null,
      },
      { id: childIds[0], eventId: 'statusUpdate', payload: { percentComplete: 40 }, tenant: null },
      { id: childIds[0], eventId: 'doneSuccessfully', payload: { output: 'x' }, tenant: null },
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    expect((await get(h.manager, parent.id)).numSubProcesses).toBe(1);
    expect(await get(h.manager, childIds[0])).toMatchObject({
      output: 'x',
      state: { stateId: ProcessStates.PROCESSED },
    });
  });

  it('counts each leaf exactly once when the same completions race in two batches', async () => {
    const { parentId, childIds } = await batchWith(6);
    const events = childIds.map((id) => ({ id, eventId: 'doneSuccessfully', payload: { output: null }, tenant: null }));
    const [a, b] = await Promise.all([h.manager.sendEvents(events), h.manager.sendEvents([...events].reverse())]);
    const oks = [...a, ...b].filter((r) => r.ok).length;
    expect(oks).toBe(6);
    expect([...a, ...b].filter((r) => !r.ok).every((r) => !r.ok && isFwError(r.error) && r.error.code === 422)).toBe(
      true,
    );
    expect((await get(h.manager, parentId)).numCompletedSubProcesses).toBe(6);
    expect(await completionEvents(childIds)).toBe(6);
  });
});

describeEachDatabase('sendEvents with the outbox', (getDb) => {
  let h: Harness;
  afterAll(async () => {
    await h?.manager.close();
  });

  it('counts the batch on the parent in its own transaction (no CHILD_COMPLETED); the aggregator launch is the only command; listeners after the commit', async () => {
    const completed: string[] = [];
    h = makeHarness(getDb(), {
      outbox: { enabled: true, runDispatcher: false },
      onProcessCompleted: (e) => void completed.push(e.processId),
    });
    const parent = await create(h.manager, 'batch');
    await send(h.manager, parent.id, 'splitDone', {
      subProcesses: [
        { processType: 'chunk', args: {} },
        { processType: 'chunk', args: {} },
      ],
    });
    const dispatcher = h.manager.outbox!.makeDispatcher();
    await dispatcher.runOnce(); // START_WORKER of the children
    const childIds = (await h.manager.getProcessTree(parent.id, { tenant: null })).slice(1).map((c) => c.id);
    const results = await h.manager.sendEvents(
      childIds.map((id) => ({ id, eventId: 'doneSuccessfully', payload: { output: 1 }, tenant: null })),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    const db = processDb(getDb().database);
    const { rows } = await sql<{ command_type: string; n: string }>`
      select command_type, count(*) as n from fw_process_outbox where status = 'PENDING' group by command_type`.execute(
      db,
    );
    expect(rows.map((r) => [r.command_type, Number(r.n)])).toEqual([['START_WORKER', 1]]);
    const counted = await get(h.manager, parent.id);
    expect(counted).toMatchObject({
      numCompletedSubProcesses: 2,
      state: { stateId: ProcessStates.AGGREGATION_PENDING },
    });
    // The children are marked counted (no report rows), so a second route (an HTTP report) cannot count one again.
    const marks = await sql<{
      marked: string;
      rows: string;
    }>`select (select count(*) from fw_process where parent_id = ${parent.id} and counted_inline) as marked,
              (select count(*) from fw_process_child_report where parent_id = ${parent.id}) as rows`.execute(db);
    expect([Number(marks.rows[0].marked), Number(marks.rows[0].rows)]).toEqual([2, 0]);
    await expect(
      h.manager.sendEvent(
        parent.id,
        'subProcessDoneSuccessfully',
        { childId: childIds[0], output: 1 },
        { tenant: null },
      ),
    ).resolves.toBeDefined();
    expect((await get(h.manager, parent.id)).numCompletedSubProcesses).toBe(2);
    expect(completed.sort()).toEqual([...childIds].sort());
  });
});
