// The event adapter: events on an emitter become registry calls; every event gets an outcome
// carrying its correlation id, failures as error envelopes.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { EVENT_CHANNEL, make{{servicePascal}}Registry, subscribe, type EventOutcome } from '../src';

function collect(count: number): { outcomes: EventOutcome[]; all: Promise<EventOutcome[]>; push: (o: EventOutcome) => void } {
  const outcomes: EventOutcome[] = [];
  let resolve: (value: EventOutcome[]) => void = () => undefined;
  const all = new Promise<EventOutcome[]>((r) => (resolve = r));
  return {
    outcomes,
    all,
    push: (o) => {
      outcomes.push(o);
      if (outcomes.length === count) resolve(outcomes);
    },
  };
}

test('events invoke the operation; bad events and bad inputs answer error envelopes', async () => {
  const source = new EventEmitter();
  const sink = collect(3);
  const stop = subscribe(source, make{{servicePascal}}Registry(), sink.push);
  source.emit(EVENT_CHANNEL, { operation: 'quote', input: { sku: 'B-7', quantity: 12, unitPrice: 1 }, correlationId: 'c-1' });
  source.emit(EVENT_CHANNEL, { input: {}, correlationId: 'c-2' });
  source.emit(EVENT_CHANNEL, { operation: 'quote', input: { sku: 'B-7' }, correlationId: 'c-3' });
  const byId = new Map((await sink.all).map((o) => [o.correlationId, o.envelope]));
  assert.deepEqual(byId.get('c-1'), { success: true, code: 200, payload: { sku: 'B-7', quantity: 12, discountPercent: 10, total: 10.8 } });
  assert.deepEqual([byId.get('c-2')?.code, byId.get('c-2')?.success], [400, false]);
  assert.equal(byId.get('c-3')?.code, 400);
  stop();
  assert.equal(source.listenerCount(EVENT_CHANNEL), 0);
});
