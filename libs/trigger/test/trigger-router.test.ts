import { FwError } from '@fw/core';
import { describeEachDatabase } from '@fw/test-support';
import { makeTriggerRouter, makeTriggerService, type TriggerService } from '@fw/trigger';
import express from 'express';
import request from 'supertest';
import { freshTenant, makeRecordingDispatch, type RecordingDispatch } from './support';

describeEachDatabase('trigger router (EXTERNAL)', (getDb) => {
  let app: express.Express;
  let recorder: RecordingDispatch;
  let triggers: TriggerService;

  beforeAll(() => {
    recorder = makeRecordingDispatch();
    triggers = makeTriggerService({ database: getDb().database, dispatch: recorder.dispatch });
    app = express();
    app.use(makeTriggerRouter({ triggerService: triggers }));
  });
  beforeEach(() => {
    recorder.behaviour = undefined;
  });

  it('triggers under the tenant header, namespaces the key, and answers a retry as a duplicate', async () => {
    const tenant = freshTenant();
    const body = { triggerId: 'order-4711', payload: { processDefName: 'import', args: { order: 4711 } } };
    const first = await request(app).post('/triggers').set('x-fw-tenant-id', tenant).send(body).expect(200);
    expect(first.body).toMatchObject({
      success: true,
      code: 200,
      payload: { triggerId: `external:${tenant}:order-4711`, dispatched: true, duplicate: false, status: 'COMPLETED' },
    });
    const retry = await request(app).post('/triggers').set('x-fw-tenant-id', tenant).send(body).expect(200);
    expect(retry.body.payload).toEqual({
      triggerId: `external:${tenant}:order-4711`,
      eventId: first.body.payload.eventId,
      logId: first.body.payload.logId,
      dispatched: false,
      duplicate: true,
    });
    expect(recorder.calls.filter((c) => c.tenant === tenant)).toHaveLength(1);
    const execution = (await triggers.listExecutions({ tenant }, { page: 0, size: 5 })).content;
    expect(execution.map((e) => [e.source, e.triggerId])).toEqual([['EXTERNAL', `external:${tenant}:order-4711`]]);
  });

  it('takes the key from x-fw-trigger-id, or generates one', async () => {
    const tenant = freshTenant();
    const fromHeader = await request(app)
      .post('/triggers')
      .set('x-fw-tenant-id', tenant)
      .set('x-fw-trigger-id', 'h-1')
      .send({ payload: { processDefName: 'import' } })
      .expect(200);
    expect(fromHeader.body.payload.triggerId).toBe(`external:${tenant}:h-1`);
    const generated = await request(app)
      .post('/triggers')
      .set('x-fw-tenant-id', tenant)
      .send({ payload: { processDefName: 'import' } })
      .expect(200);
    expect(generated.body.payload.triggerId).toMatch(new RegExp(`^external:${tenant}:[0-9a-f-]{36}$`));
  });

  it('refuses a missing tenant, a key over 80 characters and a payload without processDefName (400 envelope)', async () => {
    const missingTenant = await request(app)
      .post('/triggers')
      .send({ payload: { processDefName: 'import' } })
      .expect(400);
    expect(missingTenant.body).toMatchObject({
      success: false,
      code: 400,
      subErrorCode: 'T001',
      legacyCode: 'T400',
      payload: null,
    });
    const tenant = freshTenant();
    const longKey = await request(app)
      .post('/triggers')
      .set('x-fw-tenant-id', tenant)
      .send({ triggerId: 'k'.repeat(81), payload: { processDefName: 'import' } })
      .expect(400);
    expect(longKey.body.description).toContain('at most 80 characters');
    await request(app)
      .post('/triggers')
      .set('x-fw-tenant-id', tenant)
      .send({ triggerId: 'k'.repeat(80), payload: { processDefName: 'import' } })
      .expect(200);
    const noType = await request(app).post('/triggers').set('x-fw-tenant-id', tenant).send({ payload: {} }).expect(400);
    expect(noType.body.errors[0]).toMatchObject({ field: 'payload.processDefName' });
  });

  it('answers a failed dispatch with its 4xx error, others with a generic 500; both are in the history', async () => {
    const tenant = freshTenant();
    recorder.behaviour = () => {
      throw new FwError({ code: 400, subErrorCode: 'P002', description: "Unknown process type 'nope'" });
    };
    const rejected = await request(app)
      .post('/triggers')
      .set('x-fw-tenant-id', tenant)
      .send({ triggerId: 'r1', payload: { processDefName: 'nope' } })
      .expect(400);
    expect(rejected.body).toMatchObject({
      success: false,
      subErrorCode: 'P002',
      description: "Unknown process type 'nope'",
    });
    recorder.behaviour = () => {
      throw new Error('secret internals');
    };
    const broken = await request(app)
      .post('/triggers')
      .set('x-fw-tenant-id', tenant)
      .send({ triggerId: 'r2', payload: { processDefName: 'import' } })
      .expect(500);
    expect(JSON.stringify(broken.body)).not.toContain('secret internals');
    const failed = await triggers.listExecutions({ tenant, status: 'FAILED' }, { page: 0, size: 5 });
    expect(failed.content.map((e) => e.failureMessage)).toEqual(['secret internals', "Unknown process type 'nope'"]);
  });
});
