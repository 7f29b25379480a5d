/**
 * Typed input fields as a worker author meets them: through the batch service, which reports a
 * bad payload to the process with the step's error event (`errors: ["<KIND>: <message>"]`).
 */
import type { WorkerDto } from '@fw/process-api';
import {
  AggregatorBase,
  ExecutorBase,
  listOf,
  makeBatchService,
  optional,
  shape,
  SplitterBase,
  type ChildResult,
  type ChildSpec,
  type PayloadType,
  type ProcessEventSink,
} from '@fw/process-utils';
import { childResults, messageBuilder } from './worker-messages';

interface Delivered {
  eventId: string;
  payload: unknown;
}

function recordingSink(): ProcessEventSink & { delivered: Delivered[] } {
  const delivered: Delivered[] = [];
  return {
    delivered,
    async deliver(_processId, eventId, payload) {
      delivered.push({ eventId, payload });
    },
  };
}

const PID = '0f4b2d0e-6c1a-4e55-9d77-2b9a3c4d5e6f';

const message = messageBuilder({ processId: PID });

const statsInput = shape({
  numbers: listOf('number'),
  counts: listOf('integer'),
  labels: listOf('string'),
  flags: listOf('boolean'),
  items: listOf(shape({ sku: 'string' })),
  meta: shape({ source: 'string' }),
  extra: optional(shape({ note: 'string' })),
});
type StatsInput = PayloadType<typeof statsInput>;

/** Uses every field with its inferred type (a wrong inference fails the type check). */
class Stats extends ExecutorBase<
  StatsInput,
  { sum: number; count: number; labels: string; on: number; skus: string[]; source: string; note: string | null }
> {
  readonly processType = 'stats';
  override readonly inputSchema = statsInput;
  execute(input: StatsInput) {
    const sum: number = input.numbers.reduce((s, n) => s + n, 0);
    const count: number = input.counts.reduce((s, n) => s + n, 0);
    const labels: string = input.labels.join('+');
    const on: number = input.flags.filter((f: boolean) => f).length;
    return {
      sum,
      count,
      labels,
      on,
      skus: input.items.map((i) => i.sku),
      source: input.meta.source,
      note: input.extra?.note ?? null,
    };
  }
}

const valid = {
  numbers: [1, 2.5],
  counts: [3],
  labels: ['a', 'b'],
  flags: [true, false, true],
  items: [{ sku: 's1' }],
  meta: { source: 'm' },
};

class SplitNumbers extends SplitterBase<{ numbers: number[] }, { n: number }> {
  readonly processType = 'split-numbers';
  override readonly inputSchema = shape({ numbers: listOf('number') });
  split(input: { numbers: number[] }): ChildSpec<{ n: number }>[] {
    return input.numbers.map((n) => ({ processType: 'n', args: { n } }));
  }
}

class SumValues extends AggregatorBase<unknown, { values: number[] }, { total: number }> {
  readonly processType = 'sum-values';
  override readonly childOutputSchema = shape({ values: listOf('number') });
  aggregate(_input: unknown, children: ChildResult<{ values: number[] }>[]): { total: number } {
    return { total: children.reduce((s, c) => s + (c.output?.values.reduce((a, b) => a + b, 0) ?? 0), 0) };
  }
}

/** Runs one message and returns the outcome with the error event the process received. */
async function runOne(worker: Stats | SplitNumbers | SumValues, dto: WorkerDto) {
  const sink = recordingSink();
  const outcome = await makeBatchService({ workers: [worker], sink }).run(dto);
  return { outcome, delivered: sink.delivered };
}

/** The error event of a failed executor step, for a payload failure found by the framework. */
function errorEvent(eventId: string, kindAndMessage: string): Delivered {
  const message = kindAndMessage.slice(kindAndMessage.indexOf(': ') + 2);
  return {
    eventId,
    payload: { errors: [kindAndMessage], exceptionMessage: `WorkerPayloadError: ${message}`, stackTrace: null },
  };
}

describe('typed input fields through the batch service', () => {
  it('lists of every primitive kind and nested schemas reach the author typed', async () => {
    const { outcome, delivered } = await runOne(
      new Stats(),
      message('stats', 'EXECUTOR', { ...valid, extra: { note: 'n' }, unknown: 1 }),
    );
    expect(outcome).toMatchObject({ status: 'succeeded', events: ['doneSuccessfully'] });
    expect(delivered[0]?.payload).toEqual({
      output: { sum: 3.5, count: 3, labels: 'a+b', on: 2, skus: ['s1'], source: 'm', note: 'n' },
    });
  });

  it.each([
    ['numbers', [1, 2, 'three'], "INCOMPATIBLE_FIELD_TYPE: 'input.numbers[2]' must be a number, got a string"],
    ['counts', [1, 2.5], "INCOMPATIBLE_FIELD_TYPE: 'input.counts[1]' must be an integer, got a number"],
    ['labels', ['a', 7], "INCOMPATIBLE_FIELD_TYPE: 'input.labels[1]' must be a string, got a number"],
    ['flags', [null], "INCOMPATIBLE_FIELD_TYPE: 'input.flags[0]' must be a boolean, got null"],
    ['items', [{ sku: 's' }, 'x'], "INCOMPATIBLE_FIELD_TYPE: 'input.items[1]' must be an object, got a string"],
    ['items', [{ sku: 1 }], "INCOMPATIBLE_FIELD_TYPE: 'input.items[0].sku' must be a string, got a number"],
    ['numbers', { 0: 1 }, "INCOMPATIBLE_FIELD_TYPE: 'input.numbers' must be an array, got an object"],
    ['meta', 'm', "INCOMPATIBLE_FIELD_TYPE: 'input.meta' must be an object, got a string"],
    ['extra', [], "INCOMPATIBLE_FIELD_TYPE: 'input.extra' must be an object, got an array"],
  ])('%s = %j: doneWithErrors %s', async (field, value, expected) => {
    const { outcome, delivered } = await runOne(
      new Stats(),
      message('stats', 'EXECUTOR', { ...valid, [field]: value }),
    );
    expect(outcome).toMatchObject({
      status: 'failed',
      events: ['doneWithErrors'],
      failure: { kind: 'INCOMPATIBLE_FIELD_TYPE' },
    });
    expect(delivered).toEqual([errorEvent('doneWithErrors', expected)]);
  });

  it.each(['numbers', 'counts', 'labels', 'flags', 'items', 'meta'])(
    'a missing %s (absent or null) is MALFORMED_PAYLOAD naming it',
    async (field) => {
      const absent: Record<string, unknown> = { ...valid };
      delete absent[field];
      for (const input of [absent, { ...valid, [field]: null }]) {
        const { outcome, delivered } = await runOne(new Stats(), message('stats', 'EXECUTOR', input));
        expect(outcome).toMatchObject({
          status: 'failed',
          failure: { kind: 'MALFORMED_PAYLOAD', field: `input.${field}` },
        });
        expect(delivered).toEqual([errorEvent('doneWithErrors', `MALFORMED_PAYLOAD: 'input.${field}' is required`)]);
      }
    },
  );

  it('a missing field inside a nested object or a list item is named by its path', async () => {
    const nested = await runOne(new Stats(), message('stats', 'EXECUTOR', { ...valid, meta: {} }));
    expect(nested.delivered).toEqual([
      errorEvent('doneWithErrors', "MALFORMED_PAYLOAD: 'input.meta.source' is required"),
    ]);
    const item = await runOne(
      new Stats(),
      message('stats', 'EXECUTOR', { ...valid, items: [{ sku: 'a' }, { other: 1 }] }),
    );
    expect(item.delivered).toEqual([
      errorEvent('doneWithErrors', "MALFORMED_PAYLOAD: 'input.items[1].sku' is required"),
    ]);
  });

  it('an input that is no object at all stays MALFORMED_PAYLOAD', async () => {
    const { delivered } = await runOne(new Stats(), message('stats', 'EXECUTOR', null));
    expect(delivered).toEqual([
      errorEvent('doneWithErrors', "MALFORMED_PAYLOAD: 'input' must be a JSON object, got null"),
    ]);
  });

  it('splitters report a bad or missing list with splitDoneWithErrors', async () => {
    const ok = await runOne(new SplitNumbers(), message('split-numbers', 'SPLITTER', { numbers: [1, 2] }));
    expect(ok.delivered[0]).toMatchObject({
      eventId: 'splitDone',
      payload: { subProcesses: [{ args: { n: 1 } }, { args: { n: 2 } }] },
    });
    const missing = await runOne(new SplitNumbers(), message('split-numbers', 'SPLITTER', {}));
    expect(missing.delivered).toEqual([
      errorEvent('splitDoneWithErrors', "MALFORMED_PAYLOAD: 'input.numbers' is required"),
    ]);
    const bad = await runOne(new SplitNumbers(), message('split-numbers', 'SPLITTER', { numbers: [1, '2'] }));
    expect(bad.delivered).toEqual([
      errorEvent('splitDoneWithErrors', "INCOMPATIBLE_FIELD_TYPE: 'input.numbers[1]' must be a number, got a string"),
    ]);
  });

  it("aggregators check each child's output list and name the child and the item", async () => {
    const ok = await runOne(
      new SumValues(),
      message('sum-values', 'AGGREGATOR', null, {
        subProcessResults: childResults([{ values: [1, 2] }, { values: [3] }]),
      }),
    );
    expect(ok.delivered).toEqual([{ eventId: 'aggregationDone', payload: { output: { total: 6 } } }]);
    const bad = await runOne(
      new SumValues(),
      message('sum-values', 'AGGREGATOR', null, {
        subProcessResults: childResults([{ values: [1] }, { values: [2, 'x'] }]),
      }),
    );
    expect(bad.delivered).toEqual([
      errorEvent(
        'aggregationDoneWithErrors',
        "INCOMPATIBLE_FIELD_TYPE: 'subProcessResults[1].output.values[1]' must be a number, got a string",
      ),
    ]);
    const missing = await runOne(
      new SumValues(),
      message('sum-values', 'AGGREGATOR', null, { subProcessResults: childResults([{}]) }),
    );
    expect(missing.delivered).toEqual([
      errorEvent('aggregationDoneWithErrors', "MALFORMED_PAYLOAD: 'subProcessResults[0].output.values' is required"),
    ]);
  });
});
