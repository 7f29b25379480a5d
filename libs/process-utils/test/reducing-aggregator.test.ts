import type { SubProcessResult } from '@fw/process-api';
import {
  AggregatorBase,
  makeBatchService,
  ReducingAggregatorBase,
  shape,
  type ChildResult,
  type ProcessEventSink,
} from '@fw/process-utils';
import { childResults, messageBuilder } from './worker-messages';

const PID = '0d6a8f7e-3b1c-4f55-9a0e-2a7d3c9b1e42';
const message = messageBuilder({ processId: PID, tenant: 't1' });
const value = shape({ v: 'number' });

/** Folds the values and records how many children it held at once (never more than one). */
class FoldTotal extends ReducingAggregatorBase<unknown, { v: number }, { total: number; seen: number }, unknown> {
  readonly processType = 'fold';
  override readonly childOutputSchema = value;
  initial() {
    return { total: 0, seen: 0 };
  }
  reduce(acc: { total: number; seen: number }, child: ChildResult<{ v: number }>) {
    return { total: acc.total + (child.output?.v ?? 0), seen: acc.seen + 1 };
  }
  finish(acc: { total: number; seen: number }) {
    return acc;
  }
}

class ListTotal extends AggregatorBase<unknown, { v: number }, unknown> {
  readonly processType = 'list';
  aggregate(_input: unknown, children: ChildResult<{ v: number }>[]) {
    return { total: children.reduce((t, c) => t + (c.output?.v ?? 0), 0), seen: children.length };
  }
}

/** Pages of `size` results over values 0..n-1; `failAt` makes that page's read reject. */
function pagedLoader(n: number, size: number, failAt?: number) {
  const calls: string[] = [];
  const all = childResults(Array.from({ length: n }, (_, i) => ({ v: i })));
  const load = (processId: string, tenant: string | null): AsyncIterable<readonly SubProcessResult[]> => {
    calls.push(`${processId}/${tenant}`);
    return (async function* pages() {
      for (let from = 0, page = 0; from < all.length; from += size, page++) {
        if (page === failAt) throw new Error('connection lost');
        yield all.slice(from, from + size);
      }
    })();
  };
  return { load, calls };
}

function recordingSink(extra: Partial<ProcessEventSink> = {}): ProcessEventSink & { delivered: unknown[] } {
  const delivered: unknown[] = [];
  return {
    delivered,
    async deliver(_processId, eventId, payload) {
      delivered.push({ eventId, payload });
    },
    ...extra,
  };
}

describe('aggregators over children read page by page', () => {
  it('folds every child of three pages in order, one at a time', async () => {
    const sink = recordingSink();
    const loader = pagedLoader(25, 10);
    const service = makeBatchService({ workers: [new FoldTotal()], sink, loadChildResults: loader.load });
    expect(await service.run(message('fold', 'AGGREGATOR', null))).toMatchObject({ status: 'succeeded' });
    expect(sink.delivered).toEqual([{ eventId: 'aggregationDone', payload: { output: { total: 300, seen: 25 } } }]);
    expect(loader.calls).toEqual([`${PID}/t1`]);
  });

  it('gives a classic aggregator the pages as one list', async () => {
    const sink = recordingSink();
    const service = makeBatchService({ workers: [new ListTotal()], sink, loadChildResults: pagedLoader(25, 10).load });
    await service.run(message('list', 'AGGREGATOR', null));
    expect(sink.delivered).toEqual([{ eventId: 'aggregationDone', payload: { output: { total: 300, seen: 25 } } }]);
  });

  it("uses the sink's loader when the service is given none", async () => {
    const sink = recordingSink({ loadChildResults: pagedLoader(5, 2).load });
    const service = makeBatchService({ workers: [new FoldTotal()], sink });
    await service.run(message('fold', 'AGGREGATOR', null));
    expect(sink.delivered).toEqual([{ eventId: 'aggregationDone', payload: { output: { total: 10, seen: 5 } } }]);
  });

  it('names a bad child output by its place across pages', async () => {
    const sink = recordingSink();
    const results = childResults([{ v: 1 }, { v: 2 }, { v: 3 }, { v: 'four' }]);
    const service = makeBatchService({
      workers: [new FoldTotal()],
      sink,
      loadChildResults: () =>
        (async function* pages() {
          yield results.slice(0, 2);
          yield results.slice(2);
        })(),
    });
    expect(await service.run(message('fold', 'AGGREGATOR', null))).toMatchObject({
      status: 'failed',
      events: ['aggregationDoneWithErrors'],
      failure: { kind: 'INCOMPATIBLE_FIELD_TYPE', field: 'subProcessResults[3].output.v' },
    });
  });

  it('delivers nothing when a page cannot be read: the attempt is undeliverable (a durable runner retries it)', async () => {
    const sink = recordingSink();
    const service = makeBatchService({
      workers: [new FoldTotal()],
      sink,
      loadChildResults: pagedLoader(25, 10, 1).load,
    });
    const outcome = await service.run(message('fold', 'AGGREGATOR', null), { attempt: 1, maxAttempts: 3 });
    expect(outcome.status).toBe('undeliverable');
    expect(sink.delivered).toEqual([]);
  });
});
