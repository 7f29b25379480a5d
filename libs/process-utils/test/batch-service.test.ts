import { currentContext, currentTenantId, FwError } from '@fw/core';
import {
  AggregatorBase,
  deterministicChildId,
  ExecutorBase,
  makeBatchService,
  shape,
  SplitterBase,
  type ChildResult,
  type ChildSpec,
  type ProcessEventSink,
  type WorkerContext,
} from '@fw/process-utils';
import { childResults, messageBuilder } from './worker-messages';

interface Delivered {
  processId: string;
  eventId: string;
  payload: unknown;
  tenant: string | null;
}

function recordingSink(refuse?: (eventId: string) => unknown): ProcessEventSink & { delivered: Delivered[] } {
  const delivered: Delivered[] = [];
  return {
    delivered,
    async deliver(processId, eventId, payload, tenant) {
      const error = refuse?.(eventId);
      if (error !== undefined) throw error;
      delivered.push({ processId, eventId, payload, tenant });
    },
  };
}

const PID = '5b0c7a52-3a39-4a8e-9b55-8e6f1a3c0d11';

const message = messageBuilder({ processId: PID, tenant: 't1', triggerId: 'trg-1', config: { size: '2' } });

class Numbers extends SplitterBase<{ n: number }, { i: number }> {
  readonly processType = 'numbers';
  override readonly batchSize = 2;
  override readonly inputSchema = shape({ n: 'integer' });
  split(input: { n: number }): ChildSpec<{ i: number }>[] {
    return Array.from({ length: input.n }, (_, i) => ({
      processType: 'number',
      args: { i },
      ...(i === 0 ? { childId: '00000000-0000-4000-8000-000000000000' } : {}),
    }));
  }
}

class Pages extends SplitterBase<unknown, { page: number }> {
  readonly processType = 'pages';
  async *split(): AsyncGenerator<ChildSpec<{ page: number }>[]> {
    yield [{ processType: 'page', args: { page: 1 } }];
    yield [{ processType: 'page', args: { page: 2 } }];
    throw new Error('page source closed');
  }
}

class Echo extends ExecutorBase<unknown, unknown> {
  readonly processType = 'echo';
  seen: Array<{ tenant: string | undefined; trigger: string | undefined; config: Readonly<Record<string, string>> }> =
    [];
  async execute(input: unknown, ctx: WorkerContext): Promise<unknown> {
    this.seen.push({
      tenant: currentTenantId(),
      trigger: currentContext()?.headers['x-fw-trigger-id'],
      config: ctx.config,
    });
    await ctx.reportProgress(50);
    return input;
  }
}

class Total extends AggregatorBase<unknown, { v: number }, { total: number }> {
  readonly processType = 'total';
  override readonly childOutputSchema = shape({ v: 'number' });
  aggregate(_input: unknown, children: ChildResult<{ v: number }>[]): { total: number } {
    return { total: children.reduce((s, c) => s + (c.output?.v ?? 0), 0) };
  }
}

describe('batch service', () => {
  it('cuts a split into batches: splitPartiallyDone for all but the last, then splitDone', async () => {
    const sink = recordingSink();
    const service = makeBatchService({ workers: [new Numbers()], sink });
    const outcome = await service.run(message('numbers', 'SPLITTER', { n: 5 }));
    expect(outcome).toMatchObject({
      status: 'succeeded',
      events: ['splitPartiallyDone', 'splitPartiallyDone', 'splitDone'],
    });
    const sizes = sink.delivered.map((d) => (d.payload as { subProcesses: unknown[] }).subProcesses.length);
    expect(sizes).toEqual([2, 2, 1]);
    const ids = sink.delivered.flatMap((d) =>
      (d.payload as { subProcesses: Array<{ childId: string }> }).subProcesses.map((c) => c.childId),
    );
    expect(ids[0]).toBe('00000000-0000-4000-8000-000000000000');
    expect(ids[3]).toBe(deterministicChildId(PID, 3));
    expect(new Set(ids).size).toBe(5);
    expect(ids[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // a second delivery of the same message names the same children
    const again = recordingSink();
    await makeBatchService({ workers: [new Numbers()], sink: again }).run(message('numbers', 'SPLITTER', { n: 5 }));
    expect(again.delivered.map((d) => d.payload)).toEqual(sink.delivered.map((d) => d.payload));
    expect(sink.delivered.every((d) => d.tenant === 't1' && d.processId === PID)).toBe(true);
  });

  it('keeps two split batches on their way at once and sends splitDone only after all of them', async () => {
    let onTheirWay = 0;
    let most = 0;
    const seen: string[] = [];
    const sink: ProcessEventSink = {
      async deliver(_processId, eventId) {
        if (eventId !== 'splitPartiallyDone')
          return void seen.push(`${eventId} with ${onTheirWay} batch(es) on their way`);
        onTheirWay++;
        most = Math.max(most, onTheirWay);
        await new Promise((resolve) => setTimeout(resolve, 5));
        onTheirWay--;
        seen.push(eventId);
      },
    };
    const outcome = await makeBatchService({ workers: [new Numbers()], sink }).run(
      message('numbers', 'SPLITTER', { n: 9 }),
    );
    expect(outcome).toMatchObject({
      status: 'succeeded',
      events: ['splitPartiallyDone', 'splitPartiallyDone', 'splitPartiallyDone', 'splitPartiallyDone', 'splitDone'],
    });
    expect(most).toBe(2);
    expect(seen).toEqual([
      'splitPartiallyDone',
      'splitPartiallyDone',
      'splitPartiallyDone',
      'splitPartiallyDone',
      'splitDone with 0 batch(es) on their way',
    ]);
  });

  it('a split batch that fails ends the split once the batch still on its way has settled (no splitDone)', async () => {
    let partials = 0;
    const sent: string[] = [];
    const sink: ProcessEventSink = {
      async deliver(_processId, eventId) {
        if (eventId === 'splitPartiallyDone') {
          const n = ++partials;
          await new Promise((resolve) => setTimeout(resolve, n === 1 ? 5 : 20));
          if (n === 1) throw new Error('connection lost');
        }
        sent.push(eventId);
      },
    };
    const outcome = await makeBatchService({ workers: [new Numbers()], sink }).run(
      message('numbers', 'SPLITTER', { n: 9 }),
    );
    // The second batch was already on its way when the first failed: it is waited for and counted.
    expect(outcome).toMatchObject({ status: 'undeliverable', events: ['splitPartiallyDone'] });
    expect(sent).toEqual(['splitPartiallyDone']);
    expect(partials).toBe(2);
  });

  it('an empty split is one splitDone without children', async () => {
    const sink = recordingSink();
    await makeBatchService({ workers: [new Numbers()], sink }).run(message('numbers', 'SPLITTER', { n: 0 }));
    expect(sink.delivered.map((d) => [d.eventId, d.payload])).toEqual([['splitDone', { subProcesses: [] }]]);
  });

  it('a splitter failing after a partial batch reports splitDoneWithErrors (the batch not yet sent is dropped)', async () => {
    const sink = recordingSink();
    const outcome = await makeBatchService({ workers: [new Pages()], sink }).run(message('pages', 'SPLITTER', null));
    expect(outcome).toMatchObject({
      status: 'failed',
      events: ['splitPartiallyDone', 'splitDoneWithErrors'],
      failure: { kind: 'INVOCATION_FAILURE' },
    });
    expect(sink.delivered[0]?.payload).toMatchObject({ subProcesses: [{ processType: 'page', args: { page: 1 } }] });
    expect(sink.delivered[1]?.payload).toMatchObject({
      errors: ['INVOCATION_FAILURE: page source closed'],
      exceptionMessage: 'Error: page source closed',
    });
  });

  it('runs author code in the tenant context with a frozen copy of the config and reports progress', async () => {
    const sink = recordingSink();
    const echo = new Echo();
    const dto = message('echo', 'EXECUTOR', { a: 1 });
    const outcome = await makeBatchService({ workers: [echo], sink }).run(JSON.stringify(dto));
    expect(outcome.events).toEqual(['statusUpdate', 'doneSuccessfully']);
    expect(sink.delivered.map((d) => d.payload)).toEqual([{ percentComplete: 50 }, { output: { a: 1 } }]);
    expect(echo.seen[0]).toMatchObject({ tenant: 't1', trigger: 'trg-1', config: { size: '2' } });
    expect(Object.isFrozen(echo.seen[0]?.config)).toBe(true);
    expect(currentTenantId()).toBeUndefined();
  });

  it('aggregates subProcessResults, or loads them when the message has none', async () => {
    const sink = recordingSink();
    const service = makeBatchService({
      workers: [new Total()],
      sink,
      loadChildResults: async (id, tenant) =>
        id === PID && tenant === 't1' ? childResults([{ v: 10 }, { v: 5 }]) : [],
    });
    await service.run(message('total', 'AGGREGATOR', null, { subProcessResults: childResults([{ v: 1 }, { v: 2 }]) }));
    await service.run(message('total', 'AGGREGATOR', null));
    expect(sink.delivered.map((d) => d.payload)).toEqual([{ output: { total: 3 } }, { output: { total: 15 } }]);
  });

  it('reports a child output of the wrong type and a missing subProcessResults', async () => {
    const sink = recordingSink();
    const service = makeBatchService({ workers: [new Total()], sink });
    const bad = await service.run(
      message('total', 'AGGREGATOR', null, { subProcessResults: childResults([{ v: 1 }, { v: 'two' }]) }),
    );
    expect(bad).toMatchObject({
      status: 'failed',
      events: ['aggregationDoneWithErrors'],
      failure: { kind: 'INCOMPATIBLE_FIELD_TYPE', field: 'subProcessResults[1].output.v' },
    });
    const missing = await service.run(message('total', 'AGGREGATOR', null));
    expect(missing.failure).toMatchObject({ kind: 'MALFORMED_PAYLOAD', field: 'subProcessResults' });
  });

  it('reports envelope problems it can attribute and refuses the rest', async () => {
    const sink = recordingSink();
    const service = makeBatchService({ workers: [new Echo()], sink });
    expect(await service.run('{not json')).toMatchObject({
      status: 'undeliverable',
      failure: { kind: 'MALFORMED_PAYLOAD' },
    });
    expect(await service.run({ processType: 'echo', workerType: 'EXECUTOR' })).toMatchObject({
      status: 'undeliverable',
    });
    expect(await service.run({ processId: PID, processType: 'echo', workerType: 'CLEANER' })).toMatchObject({
      status: 'undeliverable',
      failure: { kind: 'MISSING_PAYLOAD_TYPE' },
    });
    expect(await service.run({ processId: PID, workerType: 'EXECUTOR', tenant: 't9' })).toMatchObject({
      status: 'failed',
      failure: { kind: 'MISSING_PAYLOAD_TYPE' },
    });
    expect(
      await service.run({ processId: PID, processType: 'echo', workerType: 'EXECUTOR', config: { size: 2 } }),
    ).toMatchObject({ status: 'failed', failure: { kind: 'INCOMPATIBLE_FIELD_TYPE', field: 'config.size' } });
    expect(sink.delivered.map((d) => [d.eventId, d.tenant])).toEqual([
      ['doneWithErrors', 't9'],
      ['doneWithErrors', null],
    ]);
  });

  it('ignores unknown workers when told to, and refuses duplicate registrations', async () => {
    const sink = recordingSink();
    expect(
      await makeBatchService({ workers: [], sink, unknownWorkers: 'ignore' }).run(message('echo', 'EXECUTOR', {})),
    ).toMatchObject({ status: 'ignored' });
    expect(sink.delivered).toEqual([]);
    expect(() => makeBatchService({ workers: [new Echo(), new Echo()], sink })).toThrow(
      "Two EXECUTOR workers registered for process type 'echo'",
    );
    expect(makeBatchService({ workers: [new Echo()], sink }).has('echo', 'EXECUTOR')).toBe(true);
  });

  it('classifies sink refusals: 422 stale, 400 rejected (then reported), others undeliverable', async () => {
    const stale = makeBatchService({
      workers: [new Echo()],
      sink: recordingSink(() => new FwError({ code: 422, subErrorCode: 'P010', description: 'not allowed' })),
    });
    expect(await stale.run(message('echo', 'EXECUTOR', {}))).toMatchObject({ status: 'stale', events: [] });

    const rejecting = recordingSink((eventId) =>
      eventId === 'doneSuccessfully'
        ? new FwError({ code: 400, subErrorCode: 'P003', description: 'bad output' })
        : undefined,
    );
    const rejected = await makeBatchService({ workers: [new Echo()], sink: rejecting }).run(
      message('echo', 'EXECUTOR', {}),
    );
    expect(rejected).toMatchObject({
      status: 'failed',
      events: ['statusUpdate', 'doneWithErrors'],
      failure: { kind: 'EVENT_REJECTED' },
    });
    expect(rejecting.delivered[1]?.payload).toMatchObject({
      errors: ['EVENT_REJECTED: the process service refused doneSuccessfully: bad output'],
    });

    const down = new Error('connection refused');
    const broken = makeBatchService({ workers: [new Numbers()], sink: recordingSink(() => down) });
    expect(await broken.run(message('numbers', 'SPLITTER', { n: 1 }))).toMatchObject({
      status: 'undeliverable',
      error: down,
    });
  });
});
