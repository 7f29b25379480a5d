import { makeRequestContext, runWithTenant } from '@fw/core';
import type { Process, ProcessCompletedEvent } from '@fw/process-api';
import { completedEventOf, makeProcessEventHandlers, processDb, successorInput } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import { create, DEFINITIONS, get, makeHarness, send, type Harness } from './support';

describe('successorInput', () => {
  const event = { input: { in: 1 }, output: { out: 2 } };
  it('chooses input, output or both', () => {
    expect(successorInput({ predecessorArgs: 'INPUT' }, event)).toEqual({ in: 1 });
    expect(successorInput({ predecessorArgs: 'OUTPUT' }, event)).toEqual({ out: 2 });
    expect(successorInput({ predecessorArgs: 'BOTH' }, event)).toEqual({ input: { in: 1 }, output: { out: 2 } });
    expect(successorInput({}, event)).toEqual({ input: { in: 1 }, output: { out: 2 } });
  });
});

describeEachDatabase('chaining, tenancy and worker config', (getDb) => {
  let h: Harness;
  const completed: ProcessCompletedEvent[] = [];
  beforeAll(() => {
    h = makeHarness(getDb(), { onProcessCompleted: (e) => void completed.push(e) });
  });

  const successorsOf = async (id: string): Promise<Process[]> => {
    const rows = await processDb(getDb().database)
      .selectFrom('fw_process')
      .select('id')
      .where('predecessor_id', '=', id)
      .orderBy('process_type')
      .execute();
    return Promise.all(rows.map((r) => get(h.manager, r.id)));
  };

  it('starts every successor with INPUT, OUTPUT or BOTH, keeping tenant and trigger', async () => {
    const first = (
      await h.manager.createProcess(
        { processDefName: 'first', args: { day: 7 }, triggerId: 'cron:42' },
        { tenant: 't-chain' },
      )
    ).mutatedEntity;
    await send(h.manager, first.id, 'doneSuccessfully', { output: { rows: 99 } });
    const successors = await successorsOf(first.id);
    expect(successors.map((s) => [s.processType, s.input])).toEqual([
      ['afterBoth', { input: { day: 7 }, output: { rows: 99 } }],
      ['afterInput', { day: 7 }],
      ['afterOutput', { rows: 99 }],
    ]);
    for (const s of successors) {
      expect(s).toMatchObject({
        predecessorId: first.id,
        tenant: 't-chain',
        triggerId: 'cron:42',
        parentId: null,
        state: { stateId: 'EXECUTING' },
      });
      expect(h.starter.launchesOf(s.id).map((w) => [w.workerType, w.tenant])).toEqual([['EXECUTOR', 't-chain']]);
    }
    const event = completed.find((e) => e.processId === first.id);
    expect(event).toMatchObject({
      processType: 'first',
      tenantId: 't-chain',
      triggerId: 'cron:42',
      state: 'PROCESSED',
      successful: true,
      output: { rows: 99 },
    });
  });

  it('chains after a failed predecessor too, and after a non-leaf aggregation', async () => {
    const first = await create(h.manager, 'first', { x: 1 });
    await send(h.manager, first.id, 'doneWithErrors', { errors: ['nope'] });
    expect((await successorsOf(first.id)).map((s) => s.processType)).toEqual([
      'afterBoth',
      'afterInput',
      'afterOutput',
    ]);
    const batch = await create(h.manager, 'batch');
    await send(h.manager, batch.id, 'splitDone', {});
    await send(h.manager, batch.id, 'aggregationDone', { output: { sum: 5 } });
    const [after] = await successorsOf(batch.id);
    expect(after).toMatchObject({ processType: 'afterBatch', input: { sum: 5 } });
  });

  it('POST /process/completed ingress starts successors once per predecessor', async () => {
    const handlers = makeProcessEventHandlers(h.manager);
    const event: ProcessCompletedEvent = {
      processDefName: 'first',
      processId: 'aa4f5b0e-4c7d-4c53-9f44-2d6a8f0c1b01',
      processType: 'first',
      tenantId: 't-ext',
      triggerId: 'ext-1',
      state: 'PROCESSED',
      input: 'in',
      output: 'out',
      successful: true,
    };
    const created = await handlers.ProcessCompleted(event);
    expect(created.map((p) => [p.processType, p.input, p.tenant, p.triggerId])).toEqual(
      [
        ['afterInput', 'in', 't-ext', 'ext-1'],
        ['afterOutput', 'out', 't-ext', 'ext-1'],
        ['afterBoth', { input: 'in', output: 'out' }, 't-ext', 'ext-1'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(await handlers.ProcessCompleted(event)).toEqual([]);
    expect(await successorsOf(event.processId)).toHaveLength(3);
  });

  it('completedEventOf is a ProcessDto of the completed type', async () => {
    const p = await create(h.manager, 'leafJob', { a: 1 });
    const done = await send(h.manager, p.id, 'doneSuccessfully', { output: 2 });
    expect(completedEventOf(done)).toMatchObject({
      processDefName: 'leafJob',
      args: { a: 1 },
      processId: p.id,
      successful: true,
    });
  });

  it('stores the tenant of the request and gives it to children, workers and completion events', async () => {
    const handlers = makeProcessEventHandlers(h.manager);
    const root = (
      await handlers.ProcessCreate(
        { processDefName: 'batch', args: {} },
        makeRequestContext({ tenantId: 'acme', trigger: { id: 'trg-9' } }),
      )
    ).mutatedEntity;
    expect(root).toMatchObject({ tenant: 'acme', triggerId: 'trg-9' });
    // the splitter reports without any tenant context: children inherit the parent's tenant
    await send(h.manager, root.id, 'splitDone', { subProcesses: [{ processType: 'chunk' }] });
    const [, child] = await h.manager.getProcessTree(root.id, { tenant: 'acme' });
    expect(child).toMatchObject({ tenant: 'acme', triggerId: 'trg-9', parentId: root.id });
    expect(h.starter.launchesOf(child!.id)[0]).toMatchObject({ tenant: 'acme', triggerId: 'trg-9', parentId: root.id });
    await send(h.manager, child!.id, 'doneSuccessfully', {});
    expect(completed.find((e) => e.processId === child!.id)?.tenantId).toBe('acme');
    const rows = await processDb(getDb().database)
      .selectFrom('fw_process_completion_event')
      .select('tenant')
      .where('process_id', '=', child!.id)
      .execute();
    expect(rows).toEqual([{ tenant: 'acme' }]);
  });

  it('takes the tenant from the request context and hides processes of other tenants', async () => {
    const p = await runWithTenant('t1', () => h.manager.createProcess({ processDefName: 'leafJob' }));
    expect(p.mutatedEntity.tenant).toBe('t1');
    await expect(runWithTenant('t2', () => h.manager.getProcess(p.mutatedEntity.id))).rejects.toMatchObject({
      code: 404,
    });
    await expect(
      runWithTenant('t2', () => h.manager.sendEvent(p.mutatedEntity.id, 'doneSuccessfully', {})),
    ).rejects.toMatchObject({ code: 404 });
    expect((await runWithTenant('t1', () => h.manager.getProcess(p.mutatedEntity.id))).mutatedEntity.id).toBe(
      p.mutatedEntity.id,
    );
  });

  it('gives every worker its own copy of the definition config', async () => {
    h.starter.onStart = (worker) => {
      worker.config.queue = 'mutated';
      worker.config.extra = 'x';
    };
    try {
      const a = await create(h.manager, 'leafJob');
      const b = await create(h.manager, 'leafJob');
      expect(h.starter.launchesOf(a.id)[0]?.config).toEqual({ queue: 'mutated', batchSize: '10', extra: 'x' });
      expect(h.starter.launchesOf(b.id)[0]?.config).toEqual({ queue: 'mutated', batchSize: '10', extra: 'x' });
    } finally {
      h.starter.onStart = undefined;
    }
    const c = await create(h.manager, 'leafJob');
    expect(h.starter.launchesOf(c.id)[0]?.config).toEqual({ queue: 'leaf-q', batchSize: '10' });
    expect(DEFINITIONS[0]?.config).toEqual({ queue: 'leaf-q', batchSize: '10' });
    // SPLITTER, EXECUTOR and AGGREGATOR all receive the same map
    const batch = await create(h.manager, 'batch');
    await send(h.manager, batch.id, 'splitDone', {});
    expect(h.starter.launchesOf(batch.id).map((w) => [w.workerType, w.config])).toEqual([
      ['SPLITTER', { queue: 'batch-q' }],
      ['AGGREGATOR', { queue: 'batch-q' }],
    ]);
  });

  it('rolls the state change back when the starter throws inside the transaction', async () => {
    const p = await create(h.manager, 'batch');
    h.starter.onStart = () => {
      throw new Error('broker down');
    };
    try {
      await expect(send(h.manager, p.id, 'splitDone', { subProcesses: [{ processType: 'chunk' }] })).rejects.toThrow(
        'broker down',
      );
    } finally {
      h.starter.onStart = undefined;
    }
    expect(await get(h.manager, p.id)).toEqual(p);
    expect(await h.manager.getProcessTree(p.id, { tenant: null })).toHaveLength(1);
  });
});
