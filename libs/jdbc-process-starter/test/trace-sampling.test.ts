/**
 * Sampled leaves and dropped ones in one fan-out: the split's trace is kept (its root is created
 * under a sampled parent), each leaf above the inline threshold starts a trace of its own that the
 * ratio sampler keeps about one time in two. A kept leaf's trace holds its spans and links to the
 * split; a dropped leaf exports nothing and stores the one-character "not sampled" mark with its
 * process and its work item instead of a traceparent, so that its steps keep the decision.
 */
import { createLogger } from '@fw/core';
import { makeJsonProcessConfigurator } from '@fw/process-service';
import { ExecutorBase } from '@fw/process-utils';
import { UNSAMPLED_TRACE_CONTEXT } from '@fw/telemetry';
import { databaseTargets, exportedSpans, waitForTreeFinished } from '@fw/test-support';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { sql } from 'kysely';
import { makeJdbcWorkerHost } from '../src';
import { AddParts, SplitSum, SUM_DEFINITIONS } from './fixtures/sum-workers';
import { useTracedSuite } from './traced-suite';

const LEAVES = 400;
const THRESHOLD = 20;
const SAMPLED = /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/;

/** A quiet leaf (the fixture's prints a line per step). */
class Part extends ExecutorBase<{ n: number }, { n: number }> {
  readonly processType = 'sum-part';
  execute(input: { n: number }): { n: number } {
    return { n: input.n };
  }
}

const target = databaseTargets().at(-1)!;

describe(`a fan-out whose leaves' own traces are sampled one time in two [${target}]`, () => {
  const suite = useTracedSuite(target, 'fw-trace-sampling-test', {
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.5',
    FW_TRACE_CHILDREN_INLINE: String(THRESHOLD),
  });

  it('stores the mark for the dropped leaves, exports nothing of them, and keeps the sampled ones whole', async () => {
    const { testDb, receiver, telemetry } = suite;
    const host = makeJdbcWorkerHost({
      database: testDb.database,
      closeDatabase: false,
      configurator: makeJsonProcessConfigurator({ definitions: SUM_DEFINITIONS }),
      workers: [new SplitSum(), new Part(), new AddParts()],
      concurrency: 64,
      runner: { pollIntervalMillis: 50, batchSize: 64 },
      outbox: { pollIntervalMillis: 50 },
      logger: createLogger({ name: 'trace-sampling', level: 'warn' }),
    });
    host.start();
    let rootId: string;
    try {
      const numbers = Array.from({ length: LEAVES }, (_, i) => i);
      // A sampled caller: the parent-based sampler keeps the root's trace whatever the ratio says.
      const caller = trace.wrapSpanContext({
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        traceFlags: TraceFlags.SAMPLED,
      });
      const created = await context.with(trace.setSpan(context.active(), caller), () =>
        host.manager.createProcess({ processDefName: 'sum', args: { numbers } }, { tenant: 't1' }),
      );
      rootId = created.mutatedEntity.id;
      await waitForTreeFinished(testDb.database, rootId, 120_000, () => '');
    } finally {
      await host.stop({ drainMillis: 5000 });
    }
    await telemetry.forceFlush();
    const spans = exportedSpans(receiver.received);

    const { rows } = await sql<{ id: string; process_context: string | null; item_context: string | null }>`
      select p.id::text as id, p.trace_context as process_context, w.trace_context as item_context
        from fw_process p join fw_process_work_item w on w.process_id = p.id
       where p.parent_id = ${rootId!}::uuid`.execute(testDb.database.db);
    expect(rows).toHaveLength(LEAVES);
    const dropped = rows.filter((r) => r.process_context === UNSAMPLED_TRACE_CONTEXT);
    const kept = rows.filter((r) => r.process_context !== UNSAMPLED_TRACE_CONTEXT);
    // About half each way; the bounds fail with odds far below one in a billion for a fair sampler.
    expect(dropped.length).toBeGreaterThan(LEAVES / 4);
    expect(kept.length).toBeGreaterThan(LEAVES / 4);
    for (const r of kept) {
      expect(r.process_context).toMatch(SAMPLED);
      expect(r.item_context).toMatch(SAMPLED);
    }
    // A dropped leaf's work item carries the mark on; the inline leaves are in the root's kept trace.
    for (const r of dropped) expect(r.item_context).toBe(UNSAMPLED_TRACE_CONTEXT);

    const splitSpan = spans.find(
      (s) => s.name === 'process fw_process_work_item' && s.attributes['fw.worker.type'] === 'SPLITTER',
    );
    expect(splitSpan?.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    const byLeaf = new Map<string, typeof spans>();
    for (const s of spans) {
      const id = s.attributes['fw.process.id'];
      if (typeof id === 'string') byLeaf.set(id, [...(byLeaf.get(id) ?? []), s]);
    }
    for (const r of dropped) expect(byLeaf.get(r.id)).toBeUndefined();
    for (const r of kept) {
      const own = byLeaf.get(r.id) ?? [];
      expect(own.map((s) => s.name).sort()).toEqual([
        'create fw_process',
        'create fw_process_work_item',
        'process fw_process_work_item',
        'settle fw_process_work_item',
      ]);
      const create = own.find((s) => s.name === 'create fw_process')!;
      expect(r.process_context).toContain(create.traceId);
      if (create.traceId !== splitSpan?.traceId)
        expect(create.links).toEqual([
          expect.objectContaining({ spanId: splitSpan?.spanId, attributes: { 'fw.link': 'split' } }),
        ]);
    }
    const aggregation = spans.find(
      (s) => s.name === 'process fw_process_work_item' && s.attributes['fw.worker.type'] === 'AGGREGATOR',
    );
    expect(aggregation?.traceId).toBe(splitSpan?.traceId);
  }, 180_000);
});
