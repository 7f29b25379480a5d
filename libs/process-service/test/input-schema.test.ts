import { isConfigError } from '@fw/core';
import type { ProcessDef } from '@fw/process-api';
import { makeJsonProcessConfigurator, parseProcessDef, processDb } from '@fw/process-service';
import { makeProcessRouter } from '@fw/process-service/http';
import { describeEachDatabase } from '@fw/test-support';
import express from 'express';
import { sql } from 'kysely';
import request from 'supertest';
import { create, get, makeHarness, refusal, send, type Harness } from './support';

/* A definition's inputSchema is checked when a process of that type is created: roots and children. */

const WITH_SCHEMAS: ProcessDef[] = [
  {
    processType: 'import',
    leaf: false,
    inputSchema: {
      type: 'object',
      required: ['day', 'files'],
      additionalProperties: false,
      properties: {
        day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        files: { type: 'array', items: { type: 'integer' } },
      },
    },
  },
  {
    processType: 'importFile',
    leaf: true,
    parentProcessType: 'import',
    inputSchema: { type: 'object', required: ['file'], properties: { file: { type: 'integer', minimum: 1 } } },
  },
  { processType: 'free', leaf: true },
];

describeEachDatabase('inputSchema of process definitions', (getDb) => {
  let h: Harness;
  const count = async (): Promise<number> =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from fw_process`.execute(processDb(getDb().database))).rows[0].n,
    );
  beforeAll(() => {
    h = makeHarness(getDb(), { configurator: makeJsonProcessConfigurator({ definitions: WITH_SCHEMAS }) });
  });

  it.each([
    [{ files: [1] }, 'args.day', "'args.day' is required"],
    [{ day: 20260101, files: [1] }, 'args.day', "'args.day' must be a string"],
    [{ day: '2026-01-01', files: [1, 'two'] }, 'args.files[1]', "'args.files[1]' must be an integer"],
    [{ day: '2026-01-01', files: [], extra: true }, 'args.extra', "'args.extra' is not an allowed field"],
    [{ day: 'tomorrow', files: [] }, 'args.day', '\'args.day\' must match pattern "^\\d{4}-\\d{2}-\\d{2}$"'],
    [null, 'args', "'args' must be an object"],
  ])('refuses args %j at create: 400 P003 on %s, nothing stored', async (args, field, message) => {
    const before = await count();
    const error = await refusal(h.manager.createProcess({ processDefName: 'import', args }, { tenant: 't1' }));
    expect(error).toMatchObject({ code: 400, subErrorCode: 'P003', field, params: ['import'] });
    expect(error.description).toBe(`${message} (input schema of process type 'import')`);
    expect(await count()).toBe(before);
    expect(h.starter.calls).toBe(0);
  });

  it('creates a process whose args match, and leaves types without a schema free', async () => {
    const created = await create(h.manager, 'import', { day: '2026-01-31', files: [1, 2] }, 't1');
    expect(created.input).toEqual({ day: '2026-01-31', files: [1, 2] });
    expect((await create(h.manager, 'free', { anything: ['goes'] })).input).toEqual({ anything: ['goes'] });
  });

  it('refuses a split whose child args break the child schema: 400 P003 on subProcesses[i].args, no child created', async () => {
    const parent = await create(h.manager, 'import', { day: '2026-01-31', files: [1, 0] }, 't1');
    const error = await refusal(
      send(h.manager, parent.id, 'splitDone', {
        subProcesses: [
          { processType: 'importFile', args: { file: 1 } },
          { processType: 'importFile', args: { file: 0 } },
        ],
      }),
    );
    expect(error).toMatchObject({ code: 400, subErrorCode: 'P003', field: 'subProcesses[1].args.file' });
    expect(error.description).toBe(
      "'subProcesses[1].args.file' must be >= 1 (input schema of process type 'importFile')",
    );
    expect(await get(h.manager, parent.id)).toEqual(parent);
    expect((await h.manager.getProcessTree(parent.id, { tenant: null })).length).toBe(1);
  });

  it('answers POST /process with the 400 envelope naming the field', async () => {
    const app = express()
      .use(express.json())
      .use(makeProcessRouter({ manager: h.manager }));
    const res = await request(app)
      .post('/process')
      .set('x-fw-tenant-id', 't1')
      .send({ processDefName: 'import', args: { day: '2026-01-31', files: 'all' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      code: 400,
      subErrorCode: 'P003',
      errors: [
        { field: 'args.files', description: "'args.files' must be an array (input schema of process type 'import')" },
      ],
    });
  });
});

describe('inputSchema in definitions', () => {
  it('keeps a valid schema and refuses one that is not a JSON Schema object, naming the definition', () => {
    expect(
      parseProcessDef({ processType: 'a', leaf: true, inputSchema: { type: 'object' } }, 'defs[0]').inputSchema,
    ).toEqual({ type: 'object' });
    expect(parseProcessDef({ processType: 'a', leaf: true }, 'defs[0]').inputSchema).toBeNull();
    for (const [schema, message] of [
      [[1], "defs[0] (a): 'inputSchema' must be a JSON Schema object"],
      [{ type: 'no-such-type' }, "defs[0] (a): 'inputSchema' is not a valid JSON Schema"],
    ] as const) {
      let thrown: unknown;
      try {
        parseProcessDef({ processType: 'a', leaf: true, inputSchema: schema }, 'defs[0]');
      } catch (err) {
        thrown = err;
      }
      expect(isConfigError(thrown)).toBe(true);
      expect((thrown as Error).message).toContain(message);
    }
  });
});

describe('retry in definitions', () => {
  it('keeps { attempts, backoff } and refuses anything else, naming the field', () => {
    expect(
      parseProcessDef(
        { processType: 'a', leaf: true, retry: { attempts: 4, backoff: { baseMillis: 100, maxMillis: 1000 } } },
        'defs[0]',
      ).retry,
    ).toEqual({ attempts: 4, backoff: { baseMillis: 100, maxMillis: 1000 } });
    expect(parseProcessDef({ processType: 'a', leaf: true, retry: { attempts: 1 } }, 'defs[0]').retry).toEqual({
      attempts: 1,
    });
    expect(parseProcessDef({ processType: 'a', leaf: true }, 'defs[0]').retry).toBeNull();
    expect(() => parseProcessDef({ processType: 'a', leaf: true, retry: { attempts: 0 } }, 'defs[0]')).toThrow(
      "defs[0] (a): 'retry.attempts' must be a whole number from 1 to 100",
    );
    expect(() => parseProcessDef({ processType: 'a', leaf: true, retry: 3 }, 'defs[0]')).toThrow(
      "defs[0] (a): 'retry' must be an object { attempts, backoff? }",
    );
    expect(() =>
      parseProcessDef(
        { processType: 'a', leaf: true, retry: { attempts: 2, backoff: { baseMillis: 500, maxMillis: 100 } } },
        'defs[0]',
      ),
    ).toThrow(/'retry.backoff' must be \{ baseMillis, maxMillis \}/);
  });
});

describeEachDatabase('POST /process and the input policy', (getDb) => {
  it('refuses a control character in any field with 400 FW400C naming it, creating nothing', async () => {
    const h = makeHarness(getDb());
    const app = express().use(makeProcessRouter({ manager: h.manager }));
    const count = async (): Promise<number> =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from fw_process`.execute(processDb(getDb().database))).rows[0].n,
      );
    const before = await count();
    const res = await request(app)
      .post('/process')
      .set('x-fw-tenant-id', 't1')
      .send({
        processDefName: 'leafJob',
        description: 'nul\u0000byte',
        args: { deep: [{ x: 'ok' }, { y: 'bell\u0007' }] },
      });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, subErrorCode: 'FW400C', errors: [{ field: 'description' }] });
    const nested = await request(app)
      .post('/process')
      .send({ processDefName: 'leafJob', args: { deep: [{ x: 'ok' }, { y: 'bell\u0007' }] } });
    expect(nested.body.errors[0].field).toBe('args.deep[1].y');
    expect(await count()).toBe(before);
  });
});
