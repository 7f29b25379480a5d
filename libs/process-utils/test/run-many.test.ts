import { currentTenantId, FwError } from '@fw/core';
import type { WorkerDto } from '@fw/process-api';
import {
  ExecutorBase,
  makeBatchService,
  makeBatchingEventSink,
  NonRetryableError,
  shape,
  SplitterBase,
  type ChildSpec,
  type EventDelivery,
  type ProcessEventSink,
  type StepRequest,
  type WorkerOutcome,
} from '@fw/process-utils';

/** A sink that records every event and refuses the ones `refuse` names (by process id). */
function recordingSink(
  refuse: (processId: string, eventId: string) => unknown = () => undefined,
  withMany = false,
): ProcessEventSink & { delivered: EventDelivery[]; manyCalls: number[] } {
  const delivered: EventDelivery[] = [];
  const manyCalls: number[] = [];
  const one = async (e: EventDelivery): Promise<void> => {
    const error = refuse(e.processId, e.eventId);
    if (error !== undefined) throw error;
    delivered.push(e);
  };
  const sink: ProcessEventSink & { delivered: EventDelivery[]; manyCalls: number[] } = {
    delivered,
    manyCalls,
    deliver: (processId, eventId, payload, tenant) => one({ processId, eventId, payload, tenant }),
  };
  if (withMany) {
    sink.deliverMany = async (events) => {
      manyCalls.push(events.length);
      return Promise.all(
        events.map((e) =>
          one(e).then(
            () => ({ ok: true as const }),
            (error: unknown) => ({ ok: false as const, error }),
          ),
        ),
      );
    };
  }
  return sink;
}

const pid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function message(
  n: number,
  processType: string,
  input: unknown,
  workerType: WorkerDto['workerType'] = 'EXECUTOR',
): WorkerDto {
  return {
    processId: pid(n),
    processType,
    workerType,
    tenant: `t${n % 3}`,
    triggerId: null,
    parentId: null,
    input,
    config: {},
  };
}

class Double extends ExecutorBase<{ v: number }, { v: number }> {
  readonly processType = 'double';
  override readonly inputSchema = shape({ v: 'integer' });
  tenants: Array<string | undefined> = [];
  execute(input: { v: number }): { v: number } {
    this.tenants.push(currentTenantId());
    if (input.v === 13) throw new Error('unlucky');
    if (input.v === 99) throw new NonRetryableError('never');
    return { v: input.v * 2 };
  }
}

class Later extends ExecutorBase<unknown, string> {
  readonly processType = 'later';
  async execute(input: unknown): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (input === 'fail') throw new Error('async failure');
    return `done:${String(input)}`;
  }
}

class Nothing extends ExecutorBase<unknown, undefined> {
  readonly processType = 'nothing';
  execute(): undefined {
    return undefined;
  }
}

class Two extends SplitterBase<unknown, null> {
  readonly processType = 'two';
  split(): ChildSpec<null>[] {
    return [
      { processType: 'double', args: null },
      { processType: 'double', args: null },
    ];
  }
}

/** Every kind of message the batch path must answer exactly as `run` does. */
function mixedBatch(): StepRequest[] {
  const attempt = (n: number, max = 3) => ({ attempt: n, maxAttempts: max });
  return [
    { message: message(1, 'double', { v: 1 }), attempt: attempt(1) },
    { message: message(2, 'later', 'x'), attempt: attempt(1) },
    { message: message(3, 'double', { v: 13 }), attempt: attempt(1) }, // throws, attempts left: retry
    { message: message(4, 'double', { v: 13 }), attempt: attempt(3) }, // throws on the last attempt: reported
    { message: message(5, 'double', { v: 99 }), attempt: attempt(1) }, // NonRetryableError: reported at once
    { message: message(6, 'double', { v: 'x' }), attempt: attempt(1) }, // malformed input: reported
    { message: message(7, 'later', 'fail'), attempt: attempt(1) }, // async failure, attempts left: retry
    { message: message(8, 'nothing', null) }, // undefined output: null
    { message: message(9, 'unknown-type', null) }, // no worker: MISSING_PAYLOAD_TYPE reported
    { message: message(10, 'two', null, 'SPLITTER') }, // not an executor: the one-message path
    { message: { workerType: 'EXECUTOR' } }, // not attributable: undeliverable
    { message: JSON.stringify(message(12, 'double', { v: 4 })) }, // JSON text
    { message: message(13, 'double', { v: 5 }) }, // its delivery is refused as stale (422)
    { message: message(14, 'double', { v: 6 }) }, // its delivery is rejected (400): failure reported
    { message: message(15, 'double', { v: 7 }) }, // the sink fails (500): undeliverable
  ];
}

function refusals(processId: string, eventId: string): unknown {
  if (eventId !== 'doneSuccessfully') return undefined;
  if (processId === pid(13)) return new FwError({ code: 422, subErrorCode: 'P010', description: 'not allowed' });
  if (processId === pid(14)) return new FwError({ code: 400, subErrorCode: 'P400', description: 'bad output' });
  if (processId === pid(15)) return new Error('connection reset');
  return undefined;
}

/** An outcome without the error objects (compared by their messages). */
function comparable(o: WorkerOutcome): unknown {
  return {
    status: o.status,
    processId: o.processId,
    workerType: o.workerType,
    events: o.events,
    failure: o.failure && { kind: o.failure.kind, message: o.failure.message },
    error: o.error instanceof Error ? o.error.message : o.error,
  };
}

const workers = () => [new Double(), new Later(), new Nothing(), new Two()];

describe('BatchService.runMany', () => {
  it.each([
    ['a sink with deliverMany', true],
    ['a sink without it', false],
  ])('answers every message exactly as run does (%s), delivering the same events', async (_name, withMany) => {
    const oneSink = recordingSink(refusals);
    const one = makeBatchService({ workers: workers(), sink: oneSink });
    const expected: WorkerOutcome[] = [];
    for (const r of mixedBatch()) expected.push(await one.run(r.message, r.attempt));

    const manySink = recordingSink(refusals, withMany);
    const many = makeBatchService({ workers: workers(), sink: manySink });
    const outcomes = await many.runMany(mixedBatch());

    expect(outcomes.map(comparable)).toEqual(expected.map(comparable));
    // Stack traces name the path's own frames; everything else must be the same.
    const key = (e: EventDelivery) =>
      `${e.processId} ${e.eventId} ${JSON.stringify({ ...(e.payload as object), stackTrace: undefined })} ${e.tenant}`;
    expect(manySink.delivered.map(key).sort()).toEqual(oneSink.delivered.map(key).sort());
    // Spot checks that the comparison is about something.
    expect(outcomes.map((o) => o.status)).toEqual([
      'succeeded',
      'succeeded',
      'retry',
      'failed',
      'failed',
      'failed',
      'retry',
      'succeeded',
      'failed',
      'succeeded',
      'undeliverable',
      'succeeded',
      'stale',
      'failed',
      'undeliverable',
    ]);
    expect(manySink.delivered.find((e) => e.processId === pid(1))?.payload).toEqual({ output: { v: 2 } });
    expect(manySink.delivered.find((e) => e.processId === pid(8))?.payload).toEqual({ output: null });
    expect(outcomes[3].failure?.message).toContain('attempt 3 of 3');
    if (withMany) expect(manySink.manyCalls).toEqual([7]); // the seven executor steps that produced an output, in one call
  });

  it('runs each executor in its process tenant context', async () => {
    const double = new Double();
    const service = makeBatchService({ workers: [double], sink: recordingSink(undefined, true) });
    await service.runMany([1, 2, 3, 4].map((n) => ({ message: message(n, 'double', { v: n }) })));
    expect(double.tenants).toEqual(['t1', 't2', 't0', 't1']);
  });

  it('through the batching sink, a batch of executor results becomes one sendEvents call with each its own result', async () => {
    const calls: number[] = [];
    const receiver = {
      async sendEvents(events: ReadonlyArray<{ id: string; eventId: string }>) {
        calls.push(events.length);
        return events.map((e) =>
          e.id === pid(3)
            ? {
                ok: false as const,
                error: new FwError({ code: 422, subErrorCode: 'P010', description: 'done already' }),
              }
            : { ok: true as const },
        );
      },
    };
    const service = makeBatchService({
      workers: [new Double()],
      sink: makeBatchingEventSink(receiver, { maxBatch: 500 }),
    });
    const outcomes = await service.runMany([1, 2, 3, 4, 5].map((n) => ({ message: message(n, 'double', { v: n }) })));
    expect(calls).toEqual([5]);
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded', 'stale', 'succeeded', 'succeeded']);
  });

  it('an empty batch answers nothing and delivers nothing', async () => {
    const sink = recordingSink(undefined, true);
    const service = makeBatchService({ workers: workers(), sink });
    expect(await service.runMany([])).toEqual([]);
    expect(sink.delivered).toEqual([]);
  });
});
