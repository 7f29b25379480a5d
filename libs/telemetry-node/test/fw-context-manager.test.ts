/**
 * OpenTelemetry's active context kept in `@fw/core`'s storage: it follows awaits, timers and bound
 * emitters as the SDK's own manager does, and the request context and the tracing context are
 * independent of each other (entering one keeps the other).
 */
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { context, createContextKey, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import * as core from '@fw/core';
import { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { FwContextManager } from '../src';

const { currentTenantId, runWithTenant } = core;

const KEY = createContextKey('fw-test-key');
const withValue = (value: string) => ROOT_CONTEXT.setValue(KEY, value);

describe('FwContextManager', () => {
  const manager = new FwContextManager(core);
  beforeAll(() => context.setGlobalContextManager(manager));
  afterAll(() => context.disable());

  it('answers the root context outside any with()', () => {
    expect(context.active()).toBe(ROOT_CONTEXT);
  });

  it('keeps the context across awaits and timers and restores the outer one afterwards', async () => {
    const seen = await context.with(withValue('outer'), async () => {
      await sleep(1);
      const inner = await context.with(withValue('inner'), async () => {
        await Promise.resolve();
        return new Promise<unknown>((resolve) => setTimeout(() => resolve(context.active().getValue(KEY)), 1));
      });
      return [inner, context.active().getValue(KEY)];
    });
    expect(seen).toEqual(['inner', 'outer']);
    expect(context.active()).toBe(ROOT_CONTEXT);
  });

  it('passes this and arguments to the function it runs', () => {
    const target = {
      base: 2,
      add(this: { base: number }, a: number, b: number) {
        return this.base + a + b;
      },
    };
    expect(context.with(withValue('x'), target.add, target, 3, 4)).toBe(9);
  });

  it('keeps the request context when a tracing context is entered, and the other way round', async () => {
    const seen = await runWithTenant('t1', () =>
      context.with(withValue('traced'), async () => {
        await sleep(1);
        const inside = runWithTenant('t2', () => [currentTenantId(), context.active().getValue(KEY)]);
        return [currentTenantId(), context.active().getValue(KEY), ...inside];
      }),
    );
    expect(seen).toEqual(['t1', 'traced', 't2', 'traced']);
  });

  it('binds functions and event emitters to a context (inherited from the SDK manager)', () => {
    const bound = context.bind(withValue('bound'), () => context.active().getValue(KEY));
    expect(bound()).toBe('bound');
    const emitter = context.bind(withValue('emitter'), new EventEmitter());
    let heard: unknown;
    emitter.on('ping', () => (heard = context.active().getValue(KEY)));
    context.with(withValue('elsewhere'), () => emitter.emit('ping'));
    expect(heard).toBe('emitter');
  });

  it('refuses attach() with a message saying what to use', () => {
    expect(() => manager.attach()).toThrow(/context\.with/);
  });

  it('carries a real span as the active one for the SDK', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('fw-test');
    const parent = tracer.startSpan('parent');
    await context.with(trace.setSpan(context.active(), parent), async () => {
      await sleep(1);
      tracer.startSpan('child').end();
    });
    parent.end();
    const [child, ended] = exporter.getFinishedSpans();
    expect(ended.name).toBe('parent');
    expect(child.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    await provider.shutdown();
  });
});
