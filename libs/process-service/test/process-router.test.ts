import type { Process, ProcessResponse } from '@fw/process-api';
import { makeProcessRouter } from '@fw/process-service/http';
import { describeEachDatabase } from '@fw/test-support';
import express from 'express';
import request from 'supertest';
import { makeHarness, type Harness } from './support';

describeEachDatabase('process router', (getDb) => {
  let h: Harness;
  let app: express.Express;
  beforeAll(() => {
    h = makeHarness(getDb());
    app = express();
    app.use(makeProcessRouter({ manager: h.manager }));
  });

  const entity = (body: { payload: ProcessResponse }): Process => body.payload.mutatedEntity;

  it('POST /process creates a root with tenant and trigger headers, answering the envelope', async () => {
    const res = await request(app)
      .post('/process')
      .set('x-fw-tenant-id', 'acme')
      .set('x-fw-trigger-id', 'hdr-trigger')
      .send({ processDefName: 'batch', args: { n: 2 }, description: 'nightly' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, code: 200 });
    const p = entity(res.body);
    expect(p).toMatchObject({
      processType: 'batch',
      tenant: 'acme',
      triggerId: 'hdr-trigger',
      description: 'nightly',
      input: { n: 2 },
      state: { flowId: 'process-flow', stateId: 'SPLIT_PENDING' },
    });
    expect(res.body.payload.allowedActionsAndMetadata.map((a: { allowedAction: string }) => a.allowedAction)).toEqual([
      'splitPartiallyDone',
      'splitDone',
      'splitDoneWithErrors',
      'statusUpdate',
    ]);
    expect(res.body.payload.allowedActionsAndMetadata[0]).toEqual({
      allowedAction: 'splitPartiallyDone',
      stateId: 'SPLIT_PENDING',
      metadata: { payloadType: 'SplitPayload' },
    });
    const body = await request(app)
      .post('/process')
      .send({ processDefName: 'leafJob', triggerId: 'body-trigger' })
      .set('x-fw-trigger-id', 'hdr');
    expect(entity(body.body).triggerId).toBe('body-trigger');
  });

  it('POST /process without processDefName is 400 P001', async () => {
    const res = await request(app).post('/process').send({ args: {} });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 400, subErrorCode: 'P001', payload: null });
    const unknown = await request(app).post('/process').send({ processDefName: 'ghost' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.subErrorCode).toBe('P002');
  });

  it('GET /process/:id and PATCH /process/:id/:eventID drive a process to the end', async () => {
    const created = entity(
      (await request(app).post('/process').set('x-fw-tenant-id', 't1').send({ processDefName: 'leafJob' })).body,
    );
    const got = await request(app).get(`/process/${created.id}`).set('x-fw-tenant-id', 't1');
    expect(got.status).toBe(200);
    expect(entity(got.body)).toEqual(created);
    const other = await request(app).get(`/process/${created.id}`).set('x-fw-tenant-id', 't2');
    expect(other.status).toBe(404);
    expect(other.body.subErrorCode).toBe('P004');
    const done = await request(app)
      .patch(`/process/${created.id}/doneSuccessfully`)
      .set('x-fw-tenant-id', 't1')
      .send({ output: { ok: true } });
    expect(done.status).toBe(200);
    expect(entity(done.body)).toMatchObject({ state: { stateId: 'PROCESSED' }, output: { ok: true } });
    expect(done.body.payload.allowedActionsAndMetadata).toEqual([]);
  });

  it('PATCH with an event not allowed answers 422 P010 and changes nothing', async () => {
    const created = entity((await request(app).post('/process').send({ processDefName: 'leafJob' })).body);
    const res = await request(app).patch(`/process/${created.id}/splitDone`).send({ subProcesses: [] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: 422, subErrorCode: 'P010', severity: 'ERROR' });
    expect(res.body.errors[0]).toMatchObject({ code: '422', subErrorCode: 'P010', params: ['splitDone', 'EXECUTING'] });
    expect(entity((await request(app).get(`/process/${created.id}`)).body)).toEqual(created);
    const unknownEvent = await request(app).patch(`/process/${created.id}/fly`).send({});
    expect(unknownEvent.status).toBe(422);
    expect(unknownEvent.body.subErrorCode).toBe('P005');
    const missing = await request(app).get('/process/not-a-uuid');
    expect(missing.status).toBe(404);
  });

  it('GET /processChildren/:id returns the process first, recursively on request', async () => {
    const root = entity(
      (await request(app).post('/process').set('x-fw-tenant-id', 'kids').send({ processDefName: 'batch' })).body,
    );
    await request(app)
      .patch(`/process/${root.id}/splitDone`)
      .set('x-fw-tenant-id', 'kids')
      .send({ subProcesses: [{ processType: 'nested' }, { processType: 'chunk', args: { i: 1 } }] })
      .expect(200);
    const direct = await request(app).get(`/processChildren/${root.id}`).set('x-fw-tenant-id', 'kids');
    expect(direct.status).toBe(200);
    const list = direct.body.payload as Process[];
    expect(list.map((p) => p.processType)).toEqual(['batch', 'nested', 'chunk']);
    expect(list.slice(1).every((p) => p.tenant === 'kids' && p.parentId === root.id)).toBe(true);
    await request(app)
      .patch(`/process/${list[1]!.id}/splitDone`)
      .send({ subProcesses: [{ processType: 'part' }] })
      .expect(200);
    const flat = await request(app).get(`/processChildren/${root.id}`);
    expect(flat.body.payload).toHaveLength(3);
    const deep = await request(app).get(`/processChildren/${root.id}?recursive=true`);
    expect((deep.body.payload as Process[]).map((p) => p.processType)).toEqual(['batch', 'nested', 'chunk', 'part']);
    expect((deep.body.payload as Process[])[3]?.tenant).toBe('kids');
  });

  it('POST /process/completed starts successors and validates its body', async () => {
    const res = await request(app).post('/process/completed').send({
      processId: '3d2b7c8e-1111-4a4a-8b8b-123456789abc',
      processType: 'first',
      tenantId: 'tz',
      triggerId: 'tr',
      state: 'PROCESSED',
      input: 1,
      output: 2,
      successful: true,
    });
    expect(res.status).toBe(200);
    expect((res.body.payload as Process[]).map((p) => [p.processType, p.input, p.tenant])).toEqual([
      ['afterBoth', { input: 1, output: 2 }, 'tz'],
      ['afterInput', 1, 'tz'],
      ['afterOutput', 2, 'tz'],
    ]);
    const fromHeader = await request(app)
      .post('/process/completed')
      .set('x-fw-tenant-id', 'hdr-tenant')
      .send({ processId: '3d2b7c8e-2222-4a4a-8b8b-123456789abc', processType: 'first', state: 'PROCESSED', output: 3 });
    expect((fromHeader.body.payload as Process[]).map((p) => p.tenant)).toEqual([
      'hdr-tenant',
      'hdr-tenant',
      'hdr-tenant',
    ]);
    const bad = await request(app).post('/process/completed').send({ processType: 'first' });
    expect(bad.status).toBe(400);
    expect(bad.body.subErrorCode).toBe('P003');
  });

  it('answers malformed JSON and non-JSON bodies with envelopes', async () => {
    const malformed = await request(app).post('/process').set('content-type', 'application/json').send('{ bad');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, subErrorCode: 'FW400' });
    const form = await request(app).post('/process').type('form').send('processDefName=leafJob');
    expect(form.status).toBe(415);
  });
});
