import { isFwError } from '@fw/core';
import { ProcessErrorCodes, ProcessStates, type Process } from '@fw/process-api';
import { processDb } from '@fw/process-service';
import { makeProcessRouter } from '@fw/process-service/http';
import { describeEachDatabase } from '@fw/test-support';
import express from 'express';
import { sql } from 'kysely';
import request from 'supertest';
import { create, get, makeHarness, refusal, send, type Harness } from './support';

/*
 * `parentProcessType` is checked when children are created. In the fixtures `chunk` must be a
 * child of `batch`, `part` a child of `nested`, and `leafJob` names no parent (any parent).
 */

describeEachDatabase('parentProcessType of children', (getDb) => {
  let h: Harness;
  beforeAll(() => {
    h = makeHarness(getDb());
  });

  const children = async (parentId: string): Promise<Process[]> =>
    (await h.manager.getProcessTree(parentId, { tenant: null })).slice(1);

  const outboxRowsOf = async (processId: string): Promise<number> =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from fw_process_outbox where process_id = ${processId}`.execute(
          processDb(getDb().database),
        )
      ).rows[0].n,
    );

  it('refuses a child whose definition names another parent type: 400 P008 on its field, naming both types, nothing created', async () => {
    const parent = await create(h.manager, 'batch');
    const launches = h.starter.started.length;
    // The first child is fine; the second one makes the whole split fail.
    const error = await refusal(
      send(h.manager, parent.id, 'splitDone', {
        subProcesses: [{ processType: 'chunk' }, { processType: 'part', args: { n: 1 } }],
      }),
    );
    expect(error).toMatchObject({
      code: 400,
      subErrorCode: ProcessErrorCodes.parentTypeMismatch,
      field: 'subProcesses[1].processType',
      params: ['part', 'nested', 'batch'],
    });
    expect(error.description).toBe("Process type 'part' must be a child of 'nested', not of 'batch'");
    expect(ProcessErrorCodes.parentTypeMismatch).toBe('P008');
    expect(await get(h.manager, parent.id)).toEqual(parent);
    expect(await children(parent.id)).toEqual([]);
    expect(h.starter.started.length).toBe(launches);
  });

  it('a refused split after a partial one keeps the committed children and the parent as they were', async () => {
    const parent = await create(h.manager, 'batch');
    const partial = await send(h.manager, parent.id, 'splitPartiallyDone', {
      subProcesses: [{ processType: 'chunk' }],
    });
    const launches = h.starter.started.length;
    const error = await refusal(
      send(h.manager, parent.id, 'splitDone', {
        subProcesses: [{ processType: 'chunk' }, { processType: 'nested' }, { processType: 'part' }],
      }),
    );
    expect(error).toMatchObject({ code: 400, subErrorCode: 'P008', field: 'subProcesses[2].processType' });
    const after = await get(h.manager, parent.id);
    expect(after).toEqual(partial);
    expect(after).toMatchObject({
      splitCompleted: false,
      numSubProcesses: 1,
      state: { stateId: ProcessStates.SUB_PROCESSES_PENDING },
    });
    expect((await children(parent.id)).map((c) => c.processType)).toEqual(['chunk']);
    expect(h.starter.started.length).toBe(launches);
  });

  it('refuses a child-only type as a root over POST /process: 400 P009 naming both types, nothing stored', async () => {
    const count = async () =>
      (await sql<{ n: string }>`select count(*) as n from fw_process`.execute(processDb(getDb().database))).rows[0].n;
    const before = await count();
    const error = await refusal(
      h.manager.createProcess({ processDefName: 'chunk', args: {} }, { tenant: null, refuseChildOnlyTypes: true }),
    );
    expect(error).toMatchObject({
      code: 400,
      subErrorCode: 'P009',
      field: 'processDefName',
      params: ['chunk', 'batch'],
    });
    expect(error.description).toBe("Process type 'chunk' is created only as a child of 'batch', not as a root process");
    const app = express().use(makeProcessRouter({ manager: h.manager }));
    const res = await request(app).post('/process').send({ processDefName: 'chunk', args: {} });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ subErrorCode: 'P009', errors: [{ field: 'processDefName' }] });
    expect(await count()).toBe(before);
  });

  it('through sendEvents the refused split fails alone with P008', async () => {
    // 'nested' is child-only: two of them, made by a batch's split.
    const batch = await create(h.manager, 'batch');
    await send(h.manager, batch.id, 'splitDone', {
      subProcesses: [{ processType: 'nested' }, { processType: 'nested' }],
    });
    const [refused, accepted] = await children(batch.id);
    const results = await h.manager.sendEvents([
      { id: refused.id, eventId: 'splitDone', payload: { subProcesses: [{ processType: 'chunk' }] }, tenant: null },
      { id: accepted.id, eventId: 'splitDone', payload: { subProcesses: [{ processType: 'part' }] }, tenant: null },
    ]);
    const outcomes = results.map((r) => (r.ok ? 'ok' : isFwError(r.error) ? r.error.subErrorCode : 'other'));
    expect(outcomes).toEqual(['P008', 'ok']);
    expect(await children(refused.id)).toEqual([]);
    expect(await get(h.manager, refused.id)).toEqual(refused);
    expect((await children(accepted.id)).map((c) => c.processType)).toEqual(['part']);
  });

  it('accepts children whose parentProcessType matches the parent, and children of definitions without one', async () => {
    const root = await create(h.manager, 'batch');
    const split = await send(h.manager, root.id, 'splitDone', {
      subProcesses: [{ processType: 'chunk' }, { processType: 'nested' }, { processType: 'leafJob' }],
    });
    expect(split).toMatchObject({
      numSubProcesses: 3,
      splitCompleted: true,
      state: { stateId: ProcessStates.SUB_PROCESSES_PENDING },
    });
    const level1 = await children(root.id);
    expect(level1.map((c) => [c.processType, c.parentId, c.state.stateId])).toEqual([
      ['chunk', root.id, ProcessStates.EXECUTING],
      ['nested', root.id, ProcessStates.SPLIT_PENDING],
      ['leafJob', root.id, ProcessStates.EXECUTING],
    ]);
    const nested = level1[1]!;
    await send(h.manager, nested.id, 'splitDone', {
      subProcesses: [{ processType: 'part' }, { processType: 'leafJob' }],
    });
    expect((await children(nested.id)).map((c) => [c.processType, c.parentId])).toEqual([
      ['part', nested.id],
      ['leafJob', nested.id],
    ]);
  });

  it('with the outbox a refused split writes no outbox command', async () => {
    const outboxHarness = makeHarness(getDb(), { outbox: { enabled: true, runDispatcher: false } });
    const parent = (await outboxHarness.manager.createProcess({ processDefName: 'batch', args: {} }, { tenant: null }))
      .mutatedEntity;
    const commands = await outboxRowsOf(parent.id); // the SPLITTER launch
    await expect(
      outboxHarness.manager.sendEvent(
        parent.id,
        'splitDone',
        { subProcesses: [{ processType: 'part' }] },
        { tenant: null },
      ),
    ).rejects.toMatchObject({ subErrorCode: 'P008' });
    expect(await outboxRowsOf(parent.id)).toBe(commands);
    expect((await outboxHarness.manager.getProcessTree(parent.id, { tenant: null })).slice(1)).toEqual([]);
    await outboxHarness.manager.close();
  });

  it('PATCH /process/:id/splitDone answers the refusal as a 400 envelope without a stack', async () => {
    const app = express();
    app.use(makeProcessRouter({ manager: h.manager }));
    const root = (await request(app).post('/process').set('x-fw-tenant-id', 'kids').send({ processDefName: 'batch' }))
      .body.payload.mutatedEntity as Process;
    const res = await request(app)
      .patch(`/process/${root.id}/splitDone`)
      .set('x-fw-tenant-id', 'kids')
      .send({ subProcesses: [{ processType: 'part' }] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      code: 400,
      severity: 'ERROR',
      subErrorCode: 'P008',
      legacyCode: 'P411',
      description: "Process type 'part' must be a child of 'nested', not of 'batch'",
      message: "Process type 'part' must be a child of 'nested', not of 'batch'",
      payload: null,
      errors: [
        {
          code: '400',
          subErrorCode: 'P008',
          description: "Process type 'part' must be a child of 'nested', not of 'batch'",
          params: ['part', 'nested', 'batch'],
          field: 'subProcesses[0].processType',
          severity: 'ERROR',
        },
      ],
    });
    expect(res.text).not.toMatch(/stack|\bat .*\.ts:\d+/);
    const tree = await request(app).get(`/processChildren/${root.id}`).set('x-fw-tenant-id', 'kids');
    expect((tree.body.payload as Process[]).map((p) => p.id)).toEqual([root.id]);
  });
});
