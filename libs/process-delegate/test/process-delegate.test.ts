import { isFwError } from '@fw/core';
import { ProcessErrorCodes, type ProcessDef, type WorkerDto, type WorkerStarter } from '@fw/process-api';
import {
  DelegateErrorCodes,
  isProcessDelegateError,
  makeProcessDelegate,
  type ProcessDelegate,
} from '@fw/process-delegate';
import { makeJsonProcessConfigurator, makeProcessManager, processDb } from '@fw/process-service';
import { makeProcessRouter } from '@fw/process-service/http';
import { describeEachDatabase } from '@fw/test-support';
import express from 'express';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const DEFINITIONS: ProcessDef[] = [
  { processType: 'job', leaf: true },
  { processType: 'batch', leaf: false },
  { processType: 'chunk', leaf: true, parentProcessType: 'batch' },
  { processType: 'after', leaf: true, predecessorProcessType: 'job', predecessorArgs: 'OUTPUT' },
];

async function listen(handler: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describeEachDatabase('process delegate against makeProcessRouter', (getDb) => {
  let server: Server;
  let delegate: ProcessDelegate;
  let baseUrl: string;
  const launched: WorkerDto[] = [];
  const starter: WorkerStarter = { startWorker: (worker, ctx) => ctx.afterCommit(() => void launched.push(worker)) };

  beforeAll(async () => {
    const manager = makeProcessManager({
      db: processDb(getDb().database),
      configurator: makeJsonProcessConfigurator({ definitions: DEFINITIONS }),
      workerStarter: starter,
    });
    const app = express();
    app.use(makeProcessRouter({ manager }));
    ({ server, url: baseUrl } = await listen(app));
    delegate = makeProcessDelegate({ baseUrl: `${baseUrl}/`, tenant: 'acme' });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('creates, reads and advances a process, unwrapping the envelope', async () => {
    const created = await delegate.createProcess({ processDefName: 'job', args: { n: 1 } }, { triggerId: 'trg-42' });
    const p = created.mutatedEntity;
    expect(p).toMatchObject({
      processType: 'job',
      tenant: 'acme',
      triggerId: 'trg-42',
      input: { n: 1 },
      state: { stateId: 'EXECUTING' },
    });
    expect(created.allowedActionsAndMetadata.map((a) => a.allowedAction)).toContain('doneSuccessfully');
    expect((await delegate.getProcess(p.id)).mutatedEntity).toEqual(p);
    const done = await delegate.sendEvent(p.id, 'doneSuccessfully', { output: { ok: true } });
    expect(done.mutatedEntity).toMatchObject({ state: { stateId: 'PROCESSED' }, output: { ok: true } });
  });

  it('forwards the tenant: a call under another tenant does not see the process', async () => {
    const p = (await delegate.createProcess({ processDefName: 'job' })).mutatedEntity;
    const error = await rejection(delegate.getProcess(p.id, { tenant: 'other' }));
    expect(isProcessDelegateError(error)).toBe(true);
    expect(error).toMatchObject({ code: 404, status: 404, subErrorCode: 'P004', legacyCode: 'P404', method: 'GET' });
    const untenanted = (await delegate.createProcess({ processDefName: 'job' }, { tenant: null })).mutatedEntity;
    expect(untenanted.tenant).toBeNull();
  });

  it('reads children and delivers events as a sink', async () => {
    const parent = (await delegate.createProcess({ processDefName: 'batch' })).mutatedEntity;
    await delegate.deliver(
      parent.id,
      'splitDone',
      {
        subProcesses: [
          { processType: 'chunk', args: { i: 0 } },
          { processType: 'chunk', args: { i: 1 } },
        ],
      },
      'acme',
    );
    const tree = await delegate.processChildren(parent.id, { recursive: true });
    expect(tree[0]?.id).toBe(parent.id);
    expect(tree.slice(1).map((c) => c.input)).toEqual([{ i: 0 }, { i: 1 }]);
    await delegate.deliver(tree[1]!.id, 'doneSuccessfully', { output: 5 }, 'acme');
    await delegate.deliver(
      tree[2]!.id,
      'doneWithErrors',
      { errors: ['no'], exceptionMessage: 'E', stackTrace: null },
      'acme',
    );
    expect(await delegate.childResults(parent.id, 'acme')).toEqual([
      { processId: tree[1]!.id, processType: 'chunk', stateId: 'PROCESSED', successful: true, output: 5 },
      {
        processId: tree[2]!.id,
        processType: 'chunk',
        stateId: 'PROCESSED_WITH_ERRORS',
        successful: false,
        output: null,
      },
    ]);
    expect((await delegate.getProcess(parent.id)).mutatedEntity.state.stateId).toBe('AGGREGATION_PENDING');
    expect(launched.some((w) => w.processId === parent.id && w.workerType === 'AGGREGATOR')).toBe(true);
  });

  it('posts completion events for chaining', async () => {
    const p = (await delegate.createProcess({ processDefName: 'job', args: { a: 1 } })).mutatedEntity;
    const created = await delegate.processCompleted({
      processDefName: 'job',
      processId: p.id,
      processType: 'job',
      tenantId: 'acme',
      triggerId: null,
      state: 'PROCESSED',
      input: { a: 1 },
      output: { b: 2 },
      successful: true,
    });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ processType: 'after', predecessorId: p.id, input: { b: 2 }, tenant: 'acme' });
  });

  it('throws typed errors carrying code, subErrorCode and description', async () => {
    const p = (await delegate.createProcess({ processDefName: 'job' })).mutatedEntity;
    expect(await rejection(delegate.sendEvent(p.id, 'aggregationDone', { output: 1 }))).toMatchObject({
      code: 422,
      subErrorCode: 'P010',
      legacyCode: 'P422',
    });
    expect(await rejection(delegate.createProcess({ processDefName: '' }))).toMatchObject({
      code: 400,
      subErrorCode: 'P001',
      description: "'processDefName' is required",
    });
    const unknown = await rejection(delegate.createProcess({ processDefName: 'nope' }));
    expect(unknown).toMatchObject({
      code: 400,
      subErrorCode: 'P002',
      errors: [expect.objectContaining({ field: 'processDefName' })],
    });
    expect(await rejection(delegate.sendEvent(p.id, 'statusUpdate', { percentComplete: 400 }))).toMatchObject({
      code: 400,
      subErrorCode: 'P003',
    });
  });
});

describe('process delegate transport failures', () => {
  it('reports an unreachable server, a non-envelope answer and a timeout with its own codes', async () => {
    const closed = await listen((_req, res) => res.end());
    await new Promise((resolve) => closed.server.close(resolve));
    const down = await rejection(makeProcessDelegate({ baseUrl: closed.url }).getProcess('x'));
    expect(down).toMatchObject({ code: 503, subErrorCode: DelegateErrorCodes.unreachable, status: 0 });

    const html = await listen((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    });
    const slow = await listen(() => undefined);
    try {
      expect(await rejection(makeProcessDelegate({ baseUrl: html.url }).getProcess('x'))).toMatchObject({
        code: 502,
        subErrorCode: DelegateErrorCodes.invalidResponse,
        status: 502,
      });
      expect(await rejection(makeProcessDelegate({ baseUrl: slow.url, timeoutMs: 200 }).getProcess('x'))).toMatchObject(
        { code: 504, subErrorCode: DelegateErrorCodes.timeout },
      );
    } finally {
      slow.server.closeAllConnections();
      await new Promise((resolve) => html.server.close(resolve));
      await new Promise((resolve) => slow.server.close(resolve));
    }
  });

  it('reads a code a server of the previous release spells the former way as the current one', async () => {
    const old = await listen((_req, res) => {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: false,
          code: 409,
          severity: 'ERROR',
          subErrorCode: 'P423',
          description: 'changed concurrently',
          payload: null,
          errors: [
            { code: '409', subErrorCode: 'P423', description: 'changed concurrently', params: [], severity: 'ERROR' },
          ],
        }),
      );
    });
    try {
      const error = await rejection(makeProcessDelegate({ baseUrl: old.url }).getProcess('x'));
      expect(isProcessDelegateError(error)).toBe(true);
      expect(isFwError(error)).toBe(true);
      expect(error).toMatchObject({
        code: 409,
        subErrorCode: ProcessErrorCodes.concurrentModification,
        legacyCode: 'P423',
        expose: false,
        errors: [{ subErrorCode: ProcessErrorCodes.concurrentModification }],
      });
    } finally {
      await new Promise((resolve) => old.server.close(resolve));
    }
  });

  it('sends the default headers and a JSON body with the chosen fetch', async () => {
    const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
    const fakeFetch: typeof fetch = async (url, init) => {
      calls.push({ url: String(url), init });
      return new Response(JSON.stringify({ success: true, code: 200, payload: [] }), { status: 200 });
    };
    const d = makeProcessDelegate({
      baseUrl: 'http://svc/api',
      tenant: 't1',
      headers: { authorization: 'Bearer x' },
      fetch: fakeFetch,
    });
    await d.deliver('p/1', 'splitDone', { subProcesses: [] }, 't2');
    expect(calls[0]?.url).toBe('http://svc/api/process/p%2F1/splitDone');
    expect(calls[0]?.init).toMatchObject({
      method: 'PATCH',
      body: '{"subProcesses":[]}',
      headers: { authorization: 'Bearer x', 'x-fw-tenant-id': 't2', 'content-type': 'application/json' },
    });
  });
});
