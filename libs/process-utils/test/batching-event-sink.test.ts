import { FwError } from '@fw/core';
import { makeBatchingEventSink, type BatchProcessEventReceiver } from '@fw/process-utils';

type Event = { id: string; eventId: string; payload?: unknown; tenant?: string | null };

function recordingReceiver(outcome: (e: Event) => { ok: true } | { ok: false; error: unknown } = () => ({ ok: true })) {
  const calls: Event[][] = [];
  const receiver: BatchProcessEventReceiver & { calls: Event[][] } = {
    calls,
    async sendEvents(events) {
      calls.push([...events]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return events.map(outcome);
    },
  };
  return receiver;
}

describe('makeBatchingEventSink', () => {
  it('sends the events delivered in one turn of the event loop in one call, and resolves each', async () => {
    const receiver = recordingReceiver();
    const sink = makeBatchingEventSink(receiver);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => sink.deliver(`p${i}`, 'doneSuccessfully', { output: i }, 't1')),
    );
    expect(receiver.calls).toHaveLength(1);
    expect(receiver.calls[0]).toHaveLength(10);
    expect(receiver.calls[0][3]).toEqual({
      id: 'p3',
      eventId: 'doneSuccessfully',
      payload: { output: 3 },
      tenant: 't1',
    });
  });

  it('rejects only the events the receiver refused, with their own errors', async () => {
    const refused = new FwError({ code: 422, subErrorCode: 'P010', description: 'not allowed' });
    const receiver = recordingReceiver((e) => (e.id === 'p1' ? { ok: false, error: refused } : { ok: true }));
    const sink = makeBatchingEventSink(receiver);
    const results = await Promise.allSettled(
      ['p0', 'p1', 'p2'].map((id) => sink.deliver(id, 'doneSuccessfully', {}, null)),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBe(refused);
  });

  it('rejects every event of a call that fails as a whole', async () => {
    const sink = makeBatchingEventSink({ sendEvents: async () => Promise.reject(new Error('connection lost')) });
    const results = await Promise.allSettled([
      sink.deliver('a', 'doneSuccessfully', {}, null),
      sink.deliver('b', 'doneSuccessfully', {}, null),
    ]);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as Error).message === 'connection lost')).toBe(
      true,
    );
  });

  it('caps batches at maxBatch and runs at most `concurrency` batches at once', async () => {
    let running = 0;
    let most = 0;
    const sizes: number[] = [];
    const sink = makeBatchingEventSink(
      {
        async sendEvents(events) {
          running++;
          most = Math.max(most, running);
          sizes.push(events.length);
          await new Promise((resolve) => setTimeout(resolve, 10));
          running--;
          return events.map(() => ({ ok: true as const }));
        },
      },
      { maxBatch: 4, concurrency: 2 },
    );
    await Promise.all(Array.from({ length: 18 }, (_, i) => sink.deliver(`p${i}`, 'doneSuccessfully', {}, null)));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(18);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('sends split events at once, alone, without waiting behind queued leaves', async () => {
    const receiver = recordingReceiver();
    const sink = makeBatchingEventSink(receiver, { concurrency: 1 });
    const leaves = Array.from({ length: 3 }, (_, i) => sink.deliver(`l${i}`, 'doneSuccessfully', {}, null));
    const split = sink.deliver('root', 'splitPartiallyDone', { subProcesses: [] }, null);
    await Promise.all([...leaves, split]);
    expect(receiver.calls[0]).toEqual([
      { id: 'root', eventId: 'splitPartiallyDone', payload: { subProcesses: [] }, tenant: null },
    ]);
    expect(receiver.calls[1]).toHaveLength(3);
  });
});
