import { isFwError } from '@fw/core';
import { ProcessErrorCodes, type Process } from '@fw/process-api';
import { completionEventOf, processDb } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import { create, get, makeHarness, send, type Harness } from './support';

async function expectRefused(promise: Promise<unknown>, code: number, subErrorCode: string): Promise<void> {
  let caught: unknown;
  try {
    await promise;
  } catch (e) {
    caught = e;
  }
  expect(isFwError(caught)).toBe(true);
  if (isFwError(caught)) {
    expect(caught.code).toBe(code);
    expect(caught.subErrorCode).toBe(subErrorCode);
  }
}

describeEachDatabase('process transitions', (getDb) => {
  let h: Harness;
  beforeAll(() => {
    h = makeHarness(getDb());
  });

  const completionRows = async (processId: string) =>
    processDb(getDb().database)
      .selectFrom('fw_process_completion_event')
      .selectAll()
      .where('process_id', '=', processId)
      .execute();

  /** A batch in SUB_PROCESSES_PENDING with `n` chunk children (split not final). */
  async function splitInto(n: number): Promise<{ parent: Process; childIds: string[] }> {
    const parent = await create(h.manager, 'batch', { n });
    const subProcesses = Array.from({ length: n }, (_, i) => ({ processType: 'chunk', args: { i } }));
    const after = await send(h.manager, parent.id, 'splitPartiallyDone', { subProcesses });
    const tree = await h.manager.getProcessTree(parent.id, { tenant: null });
    return { parent: after, childIds: tree.slice(1).map((c) => c.id) };
  }

  it('create with a leaf definition: EXECUTING and an EXECUTOR launched', async () => {
    const p = await create(h.manager, 'leafJob', { a: 1 });
    expect(p.state).toEqual({ flowId: 'process-flow', stateId: 'EXECUTING' });
    expect(p.leaf).toBe(true);
    expect(p.input).toEqual({ a: 1 });
    const launches = h.starter.launchesOf(p.id);
    expect(launches.map((w) => w.workerType)).toEqual(['EXECUTOR']);
    expect(launches[0]?.input).toEqual({ a: 1 });
    expect(launches[0]?.config).toEqual({ queue: 'leaf-q', batchSize: '10' });
  });

  it('create with a non-leaf definition: SPLIT_PENDING and a SPLITTER launched', async () => {
    const p = await create(h.manager, 'batch');
    expect(p.state.stateId).toBe('SPLIT_PENDING');
    expect(h.starter.launchesOf(p.id).map((w) => w.workerType)).toEqual(['SPLITTER']);
  });

  it('EXECUTING + doneSuccessfully: PROCESSED, output stored, ProcessCompleted written', async () => {
    const p = await create(h.manager, 'leafJob', { a: 2 });
    const done = await send(h.manager, p.id, 'doneSuccessfully', { output: { rows: 3 } });
    expect(done.state.stateId).toBe('PROCESSED');
    expect(done.output).toEqual({ rows: 3 });
    expect(done.completedPercent).toBe(100);
    expect(done.version).toBe(p.version + 1);
    const stored = await get(h.manager, p.id);
    expect(stored).toEqual(done);
    const events = await completionRows(p.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ state: 'PROCESSED', successful: true, process_type: 'leafJob' });
    // The row keeps in its payload only what its columns do not hold; read back, it is the whole event.
    expect(events[0]?.payload).toEqual({ description: null, input: { a: 2 }, output: { rows: 3 } });
    expect(completionEventOf(events[0]!)).toEqual({
      processDefName: 'leafJob',
      args: { a: 2 },
      triggerId: null,
      description: null,
      processId: p.id,
      processType: 'leafJob',
      tenantId: null,
      state: 'PROCESSED',
      input: { a: 2 },
      output: { rows: 3 },
      successful: true,
    });
  });

  it('EXECUTING + doneWithErrors: PROCESSED_WITH_ERRORS with the error recorded', async () => {
    const p = await create(h.manager, 'leafJob');
    const failed = await send(h.manager, p.id, 'doneWithErrors', {
      errors: ['disk full'],
      exceptionMessage: 'IOError',
      stackTrace: 'at x',
    });
    expect(failed.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(failed.errors).toEqual([
      {
        processId: p.id,
        timeOfCompletion: expect.any(String),
        errors: ['disk full'],
        exceptionMessage: 'IOError',
        stackTrace: 'at x',
      },
    ]);
    expect((await get(h.manager, p.id)).errors).toEqual(failed.errors);
    const rows = await processDb(getDb().database)
      .selectFrom('fw_process_error')
      .selectAll()
      .where('owner_id', '=', p.id)
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({
        process_id: p.id,
        errors: ['disk full'],
        exception_message: 'IOError',
        stack_trace: 'at x',
      }),
    ]);
    const events = await completionRows(p.id);
    expect(events[0]).toMatchObject({ state: 'PROCESSED_WITH_ERRORS', successful: false });
  });

  it('SPLIT_PENDING + splitPartiallyDone: SUB_PROCESSES_PENDING with the children created and launched', async () => {
    const { parent, childIds } = await splitInto(3);
    expect(parent.state.stateId).toBe('SUB_PROCESSES_PENDING');
    expect(parent.numSubProcesses).toBe(3);
    expect(parent.splitCompleted).toBe(false);
    expect(childIds).toHaveLength(3);
    for (const id of childIds) {
      const child = await get(h.manager, id);
      expect(child).toMatchObject({
        parentId: parent.id,
        processType: 'chunk',
        leaf: true,
        state: { stateId: 'EXECUTING' },
      });
      expect(h.starter.launchesOf(id).map((w) => w.workerType)).toEqual(['EXECUTOR']);
    }
  });

  it('SPLIT_PENDING + splitDone with children: SUB_PROCESSES_PENDING, split final', async () => {
    const p = await create(h.manager, 'batch');
    const after = await send(h.manager, p.id, 'splitDone', {
      subProcesses: [{ processType: 'chunk' }, { processType: 'nested' }],
    });
    expect(after.state.stateId).toBe('SUB_PROCESSES_PENDING');
    expect(after.splitCompleted).toBe(true);
    expect(after.numSubProcesses).toBe(2);
    const tree = await h.manager.getProcessTree(p.id, { tenant: null });
    expect(tree.slice(1).map((c) => [c.processType, c.state.stateId])).toEqual([
      ['chunk', 'EXECUTING'],
      ['nested', 'SPLIT_PENDING'],
    ]);
  });

  it("a split payload may override the child definition's leaf flag", async () => {
    const p = await create(h.manager, 'batch');
    await send(h.manager, p.id, 'splitDone', {
      subProcesses: [
        { processType: 'chunk', leaf: false },
        { processType: 'nested', leaf: true },
      ],
    });
    const children = (await h.manager.getProcessTree(p.id, { tenant: null })).slice(1);
    expect(children.map((c) => [c.processType, c.leaf, c.state.stateId])).toEqual([
      ['chunk', false, 'SPLIT_PENDING'],
      ['nested', true, 'EXECUTING'],
    ]);
    expect(h.starter.launchesOf(children[0]!.id).map((w) => w.workerType)).toEqual(['SPLITTER']);
  });

  it('SPLIT_PENDING + splitDone with zero children: straight to AGGREGATION_PENDING', async () => {
    const p = await create(h.manager, 'batch');
    const after = await send(h.manager, p.id, 'splitDone', { subProcesses: [] });
    expect(after.state.stateId).toBe('AGGREGATION_PENDING');
    expect(after.numSubProcesses).toBe(0);
    const aggregators = h.starter.launchesOf(p.id, 'AGGREGATOR');
    expect(aggregators).toHaveLength(1);
    expect(aggregators[0]?.subProcessResults).toEqual([]);
    const empty = await send(h.manager, (await create(h.manager, 'batch')).id, 'splitDone', {});
    expect(empty.state.stateId).toBe('AGGREGATION_PENDING');
  });

  it('SPLIT_PENDING + splitDoneWithErrors: PROCESSED_WITH_ERRORS', async () => {
    const p = await create(h.manager, 'batch');
    const after = await send(h.manager, p.id, 'splitDoneWithErrors', { errors: ['bad input'] });
    expect(after.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(after.errors.map((e) => e.errors)).toEqual([['bad input']]);
    expect(await completionRows(p.id)).toHaveLength(1);
  });

  it('SUB_PROCESSES_PENDING: children reporting before splitDone do not start aggregation', async () => {
    const { parent, childIds } = await splitInto(2);
    for (const id of childIds) await send(h.manager, id, 'doneSuccessfully', { output: id });
    const waiting = await get(h.manager, parent.id);
    expect(waiting.state.stateId).toBe('SUB_PROCESSES_PENDING');
    expect(waiting.numCompletedSubProcesses).toBe(2);
    expect(h.starter.launchesOf(parent.id, 'AGGREGATOR')).toHaveLength(0);
    // splitDone with every child reported: the guard holds now.
    const after = await send(h.manager, parent.id, 'splitDone', {});
    expect(after.state.stateId).toBe('AGGREGATION_PENDING');
    const aggregator = h.starter.launchesOf(parent.id, 'AGGREGATOR')[0];
    expect(aggregator?.subProcessResults?.map((r) => [r.processId, r.output, r.successful])).toEqual(
      childIds.map((id) => [id, id, true]),
    );
  });

  it('SUB_PROCESSES_PENDING: the last child reporting after splitDone starts aggregation', async () => {
    const p = await create(h.manager, 'batch');
    await send(h.manager, p.id, 'splitDone', { subProcesses: [{ processType: 'chunk' }, { processType: 'chunk' }] });
    const [first, second] = (await h.manager.getProcessTree(p.id, { tenant: null })).slice(1);
    await send(h.manager, first!.id, 'doneSuccessfully', { output: 1 });
    const midway = await get(h.manager, p.id);
    expect(midway.state.stateId).toBe('SUB_PROCESSES_PENDING');
    expect(midway.completedPercent).toBe(50);
    await send(h.manager, second!.id, 'doneSuccessfully', { output: 2 });
    const ready = await get(h.manager, p.id);
    expect(ready.state.stateId).toBe('AGGREGATION_PENDING');
    expect(ready.numCompletedSubProcesses).toBe(2);
    expect(h.starter.launchesOf(p.id, 'AGGREGATOR')).toHaveLength(1);
  });

  it('AGGREGATION_PENDING + aggregationDone without errors: PROCESSED', async () => {
    const p = await create(h.manager, 'batch');
    await send(h.manager, p.id, 'splitDone', {});
    const done = await send(h.manager, p.id, 'aggregationDone', { output: { total: 0 } });
    expect(done.state.stateId).toBe('PROCESSED');
    expect(done.output).toEqual({ total: 0 });
  });

  it('AGGREGATION_PENDING + aggregationDone with errors present (a failed child): PROCESSED_WITH_ERRORS', async () => {
    const p = await create(h.manager, 'batch');
    await send(h.manager, p.id, 'splitDone', { subProcesses: [{ processType: 'chunk' }, { processType: 'chunk' }] });
    const [ok, bad] = (await h.manager.getProcessTree(p.id, { tenant: null })).slice(1);
    await send(h.manager, ok!.id, 'doneSuccessfully', { output: 'fine' });
    await send(h.manager, bad!.id, 'doneWithErrors', { errors: ['boom'], exceptionMessage: 'Boom' });
    const parent = await get(h.manager, p.id);
    expect(parent.state.stateId).toBe('AGGREGATION_PENDING');
    expect(parent.errors).toEqual([
      expect.objectContaining({ processId: bad!.id, errors: ['boom'], exceptionMessage: 'Boom' }),
    ]);
    const results = h.starter.launchesOf(p.id, 'AGGREGATOR')[0]?.subProcessResults;
    expect(results?.map((r) => r.successful)).toEqual([true, false]);
    const done = await send(h.manager, p.id, 'aggregationDone', { output: 'partial' });
    expect(done.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(done.output).toBe('partial');
  });

  it('AGGREGATION_PENDING + aggregationDoneWithErrors: PROCESSED_WITH_ERRORS', async () => {
    const p = await create(h.manager, 'batch');
    await send(h.manager, p.id, 'splitDone', {});
    const done = await send(h.manager, p.id, 'aggregationDoneWithErrors', { errors: ['agg failed'] });
    expect(done.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(done.errors.map((e) => e.errors)).toEqual([['agg failed']]);
  });

  it('SUB_PROCESSES_PENDING + splitDoneWithErrors: waits for existing children, then fails on aggregation', async () => {
    const { parent, childIds } = await splitInto(1);
    const after = await send(h.manager, parent.id, 'splitDoneWithErrors', { errors: ['splitter died'] });
    expect(after.state.stateId).toBe('SUB_PROCESSES_PENDING');
    expect(after.splitCompleted).toBe(true);
    await send(h.manager, childIds[0]!, 'doneSuccessfully', {});
    expect((await get(h.manager, parent.id)).state.stateId).toBe('AGGREGATION_PENDING');
    expect((await send(h.manager, parent.id, 'aggregationDone', {})).state.stateId).toBe('PROCESSED_WITH_ERRORS');
  });

  it('statusUpdate is internal: the state stays and no worker is launched again', async () => {
    const p = await create(h.manager, 'leafJob');
    const after = await send(h.manager, p.id, 'statusUpdate', { percentComplete: 40 });
    expect(after.state.stateId).toBe('EXECUTING');
    expect(after.completedPercent).toBe(40);
    expect(after.stateEntryTime).toBe(p.stateEntryTime);
    expect(h.starter.launchesOf(p.id)).toHaveLength(1);
  });

  it('refuses an event not allowed in the state with 422 P010 and changes nothing', async () => {
    const p = await create(h.manager, 'leafJob');
    const launches = h.starter.started.length;
    await expectRefused(
      send(h.manager, p.id, 'splitDone', { subProcesses: [{ processType: 'chunk' }] }),
      422,
      ProcessErrorCodes.eventNotAllowed,
    );
    await expectRefused(
      send(h.manager, p.id, 'aggregationDone', { output: 1 }),
      422,
      ProcessErrorCodes.eventNotAllowed,
    );
    expect(await get(h.manager, p.id)).toEqual(p);
    expect(await h.manager.getProcessTree(p.id, { tenant: null })).toHaveLength(1);
    expect(h.starter.started.length).toBe(launches);
    const done = await send(h.manager, p.id, 'doneSuccessfully', {});
    await expectRefused(send(h.manager, p.id, 'doneSuccessfully', {}), 422, ProcessErrorCodes.eventNotAllowed);
    expect(await get(h.manager, p.id)).toEqual(done);
    expect(await completionRows(p.id)).toHaveLength(1);
  });

  it('refuses unknown events (422 P005), bad payloads (400 P003), unknown ids (404) and types (400 P002)', async () => {
    const p = await create(h.manager, 'batch');
    await expectRefused(send(h.manager, p.id, 'explode', {}), 422, ProcessErrorCodes.unknownEvent);
    await expectRefused(
      send(h.manager, p.id, 'splitDone', { subProcesses: 'x' }),
      400,
      ProcessErrorCodes.invalidPayload,
    );
    await expectRefused(
      send(h.manager, p.id, 'splitDone', { subProcesses: [{ processType: 'nope' }] }),
      400,
      ProcessErrorCodes.unknownProcessType,
    );
    await expectRefused(
      send(h.manager, p.id, 'splitDone', { subProcesses: [{ processType: 'chunk', childId: 'not-a-uuid' }] }),
      400,
      ProcessErrorCodes.invalidPayload,
    );
    expect(await get(h.manager, p.id)).toEqual(p);
    await expectRefused(
      send(h.manager, '6f1c7a52-0f2a-4d0e-9c53-1b9a1d1f0e11', 'splitDone', {}),
      404,
      ProcessErrorCodes.processNotFound,
    );
    await expectRefused(h.manager.createProcess({ args: {} }), 400, ProcessErrorCodes.processDefNameMissing);
    await expectRefused(h.manager.createProcess({ processDefName: 'nope' }), 400, ProcessErrorCodes.unknownProcessType);
  });

  it('a split re-sent with the same childIds creates and counts each child once', async () => {
    const p = await create(h.manager, 'batch');
    const ids = ['0b6f8f38-5d0c-4f5e-8a51-6a3c3f0e9a01', '0b6f8f38-5d0c-4f5e-8a51-6a3c3f0e9a02'];
    const subProcesses = ids.map((childId) => ({ childId, processType: 'chunk' }));
    await send(h.manager, p.id, 'splitPartiallyDone', { subProcesses });
    const again = await send(h.manager, p.id, 'splitPartiallyDone', { subProcesses });
    expect(again.numSubProcesses).toBe(2);
    expect((await h.manager.getProcessTree(p.id, { tenant: null })).slice(1).map((c) => c.id)).toEqual(ids);
    const other = await create(h.manager, 'batch');
    await expectRefused(
      send(h.manager, other.id, 'splitDone', { subProcesses: [{ childId: ids[0], processType: 'chunk' }] }),
      409,
      ProcessErrorCodes.childIdConflict,
    );
  });

  it('returns the recursive tree with the process first', async () => {
    const p = await create(h.manager, 'batch');
    await send(h.manager, p.id, 'splitDone', { subProcesses: [{ processType: 'nested' }] });
    const [, nested] = await h.manager.getProcessTree(p.id, { tenant: null });
    await send(h.manager, nested!.id, 'splitDone', {
      subProcesses: [{ processType: 'part' }, { processType: 'part' }],
    });
    const direct = await h.manager.getProcessTree(p.id, { tenant: null });
    expect(direct.map((x) => x.id)).toEqual([p.id, nested!.id]);
    const all = await h.manager.getProcessTree(p.id, { tenant: null, recursive: true });
    expect(all).toHaveLength(4);
    expect(all[0]?.id).toBe(p.id);
    expect(all.slice(2).every((c) => c.parentId === nested!.id)).toBe(true);
  });
});
