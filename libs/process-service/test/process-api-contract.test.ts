import { makeProcessRouter } from '@fw/process-service/http';
import { PROCESS_API_OPERATIONS, PROCESS_API_SCHEMAS } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import Ajv2020 from 'ajv/dist/2020';
import express from 'express';
import request from 'supertest';
import { makeHarness } from './support';

/** The answer schemas of the OpenAPI description, compiled as a host's document would show them. */
function answerValidator(): (schema: string, body: unknown) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  ajv.addKeyword('components');
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  ajv.addSchema({ $id: 'urn:test:process-api', components: { schemas: PROCESS_API_SCHEMAS } });
  return (schema, body) => {
    const validate = ajv.getSchema(`urn:test:process-api#/components/schemas/${schema}`);
    if (validate === undefined) return [`no schema ${schema}`];
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
  };
}

describeEachDatabase('process router: the OpenAPI description is what it does', (getDb) => {
  let app: express.Express;
  const problems = answerValidator();
  beforeAll(() => {
    app = express().use(makeProcessRouter({ manager: makeHarness(getDb()).manager }));
  });

  it('answers exactly the documented envelopes (strict schemas: no field more, none missing)', async () => {
    const created = await request(app)
      .post('/process')
      .set('x-fw-tenant-id', 'doc')
      .send({ processDefName: 'batch', args: { n: 1 }, extra: 'tolerated' });
    expect(problems('ProcessResponseEnvelope', created.body)).toEqual([]);
    const id = created.body.payload.mutatedEntity.id as string;
    const split = await request(app)
      .patch(`/process/${id}/splitDone`)
      .set('x-fw-tenant-id', 'doc')
      .send({ subProcesses: [{ processType: 'chunk', args: { i: 1 } }] });
    expect(problems('ProcessResponseEnvelope', split.body)).toEqual([]);
    expect(
      problems(
        'ProcessListEnvelope',
        (await request(app).get(`/processChildren/${id}`).set('x-fw-tenant-id', 'doc')).body,
      ),
    ).toEqual([]);
    const missing = await request(app).get('/process/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(problems('ErrorEnvelope', missing.body)).toEqual([]);
    // The validator is strict: a field more fails it.
    expect(problems('ErrorEnvelope', { ...missing.body, stack: 'at x' })).not.toEqual([]);
  });

  it('checks bodies against the documented schemas: 400 P001/P003 naming the field, unknown fields tolerated', async () => {
    const cases: Array<[path: string, body: unknown, code: string, description: string]> = [
      ['/process', { args: {} }, 'P001', "'processDefName' is required"],
      ['/process', { processDefName: '   ' }, 'P001', "'processDefName' is required"],
      ['/process', { processDefName: 5 }, 'P003', "'processDefName' must be a string"],
      ['/process', { processDefName: 'batch', triggerId: 7 }, 'P003', "'triggerId' must be a string or null"],
      ['/process', [1, 2], 'P003', "'body' must be an object"],
      ['/process/completed', { processType: 'first' }, 'P003', "'processId' is required"],
      ['/process/completed', { processId: 'nope', processType: 'first' }, 'P003', "'processId' must be a UUID"],
    ];
    for (const [path, body, code, description] of cases) {
      const res = await request(app)
        .post(path)
        .send(body as object);
      expect({
        path,
        body,
        status: res.status,
        code: res.body.subErrorCode,
        description: res.body.description,
      }).toEqual({ path, body, status: 400, code, description });
    }
    const created = await request(app).post('/process').send({ processDefName: 'leafJob' });
    const id = created.body.payload.mutatedEntity.id as string;
    const badPercent = await request(app).patch(`/process/${id}/statusUpdate`).send({ percentComplete: 101 });
    expect(badPercent.body).toMatchObject({
      code: 400,
      subErrorCode: 'P003',
      description: "'percentComplete' must be at most 100",
    });
    // Names of Object.prototype are events like any other unknown one.
    for (const event of ['constructor', '__proto__', 'toString'])
      expect((await request(app).patch(`/process/${id}/${event}`).send({})).body.subErrorCode).toBe('P005');
  });

  it('answers 405 with Allow to a method a documented path does not take', async () => {
    const cases: Array<[method: 'get' | 'delete' | 'put' | 'patch' | 'post', path: string, allow: string]> = [
      ['delete', '/process/00000000-0000-4000-8000-000000000000', 'GET, HEAD'],
      ['put', '/process', 'POST'],
      ['patch', '/process/completed', 'GET, HEAD, POST'],
      ['get', '/process/00000000-0000-4000-8000-000000000000/doneSuccessfully', 'PATCH'],
      ['post', '/processChildren/00000000-0000-4000-8000-000000000000', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await request(app)[method](path).send({});
      expect({ method, path, status: res.status, allow: res.headers.allow, code: res.body.subErrorCode }).toEqual({
        method,
        path,
        status: 405,
        allow,
        code: 'FW405',
      });
      expect(problems('ErrorEnvelope', res.body)).toEqual([]);
    }
    expect(PROCESS_API_OPERATIONS.map((op) => `${op.method} ${op.path}`)).toEqual([
      'POST /process',
      'GET /process/{id}',
      'PATCH /process/{id}/{eventID}',
      'GET /processChildren/{id}',
      'POST /process/completed',
    ]);
  });
});
