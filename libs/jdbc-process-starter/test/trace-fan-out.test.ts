/**
 * The inline threshold at scale: a fan-out of 10,000 leaves, split in batches of 40 (below the
 * threshold of 100, so only the count of children so far can tell), traced with the SDK started
 * as a host starts it and every span exported over OTLP/JSON to a local receiver. The split's trace
 * must stay small (at most the threshold plus one batch of children); every other leaf is a trace
 * of its own that links to the split, holding that leaf's spans.
 */
import { createLogger } from '@fw/core';
import { makeJsonProcessConfigurator } from '@fw/process-service';
import { ExecutorBase } from '@fw/process-utils';
import { databaseTargets, exportedSpans, waitForTreeFinished, type ExportedSpan } from '@fw/test-support';
import { makeJdbcWorkerHost } from '../src';
import { AddParts, SplitSum, SUM_DEFINITIONS } from './fixtures/sum-workers';
import { useTracedSuite } from './traced-suite';

const LEAVES = 10_000;
const SPLIT_BATCH = 40;
const THRESHOLD = 100;

class SplitInSmallBatches extends SplitSum {
  override readonly batchSize = SPLIT_BATCH;
}

/** A quiet leaf (the fixture's prints a line per step). */
class Part extends ExecutorBase<{ n: number }, { n: number }> {
  readonly processType = 'sum-part';
  execute(input: { n: number }): { n: number } {
    return { n: input.n };
  }
}

/** The spans of each trace id. */
function byTrace(spans: ExportedSpan[]): Map<string, ExportedSpan[]> {
  const traces = new Map<string, ExportedSpan[]>();
  for (const span of spans) traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
  return traces;
}

// A scale test: on the PostgreSQL server when one is named, else on PGlite.
const target = databaseTargets().at(-1)!;

describe(`a traced fan-out of ${LEAVES} leaves in batches of ${SPLIT_BATCH} [${target}]`, () => {
  const suite = useTracedSuite(target, 'fw-trace-fan-out-test', {
    OTEL_TRACES_SAMPLER: 'always_on',
    // Room for every span of the run: a full queue or an export given up would drop spans and the
    // counts below with them. PGlite runs in this process and holds its event loop for long
    // stretches on a loaded machine, so an export can take far longer than the default 30 s.
    OTEL_BSP_MAX_QUEUE_SIZE: '200000',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '5000',
    OTEL_BSP_EXPORT_TIMEOUT: '600000',
    OTEL_EXPORTER_OTLP_TIMEOUT: '600000',
    FW_TRACE_CHILDREN_INLINE: String(THRESHOLD),
  });

  it('keeps the split trace within the threshold plus one batch; every other leaf is a trace of its own linked to the split', async () => {
    const { testDb, receiver, telemetry } = suite;
    const host = makeJdbcWorkerHost({
      database: testDb.database,
      closeDatabase: false,
      configurator: makeJsonProcessConfigurator({ definitions: SUM_DEFINITIONS }),
      workers: [new SplitInSmallBatches(), new Part(), new AddParts()],
      concurrency: 256,
      runner: { pollIntervalMillis: 50, batchSize: 128 },
      outbox: { pollIntervalMillis: 50 },
      logger: createLogger({ name: 'trace-fan-out', level: 'warn' }),
    });
    host.start();
    let rootId: string;
    try {
      const numbers = Array.from({ length: LEAVES }, (_, i) => i);
      const created = await host.manager.createProcess({ processDefName: 'sum', args: { numbers } }, { tenant: 't1' });
      rootId = created.mutatedEntity.id;
      await waitForTreeFinished(testDb.database, rootId, 240_000, () => '');
    } finally {
      await host.stop({ drainMillis: 5000 });
    }
    await telemetry.forceFlush();
    const spans = exportedSpans(receiver.received);

    const rootCreate = spans.find((s) => s.name === 'create fw_process' && s.attributes['fw.process.id'] === rootId);
    expect(rootCreate).toBeDefined();
    const splitSpan = spans.find(
      (s) => s.name === 'process fw_process_work_item' && s.attributes['fw.worker.type'] === 'SPLITTER',
    );
    expect(splitSpan?.traceId).toBe(rootCreate?.traceId);
    const leafCreates = spans.filter(
      (s) => s.name === 'create fw_process' && s.attributes['fw.process.type'] === 'sum-part',
    );
    expect(new Set(leafCreates.map((s) => s.attributes['fw.process.id'])).size).toBe(LEAVES);

    const inline = leafCreates.filter((s) => s.traceId === rootCreate?.traceId);
    const linked = leafCreates.filter((s) => s.traceId !== rootCreate?.traceId);
    expect(inline.length).toBeGreaterThanOrEqual(1);
    expect(inline.length).toBeLessThanOrEqual(THRESHOLD + SPLIT_BATCH);
    for (const s of inline) expect(s.parentSpanId).toBe(splitSpan?.spanId);

    const traces = byTrace(spans);
    // Every linked leaf starts a trace of its own, linked to the split, holding that leaf's spans.
    expect(new Set(linked.map((s) => s.traceId)).size).toBe(linked.length);
    for (const s of linked) {
      expect(s.parentSpanId).toBeUndefined();
      expect(s.links).toEqual([
        expect.objectContaining({ spanId: splitSpan?.spanId, attributes: { 'fw.link': 'split' } }),
      ]);
      const leafTrace = traces.get(s.traceId) ?? [];
      const own = leafTrace.filter((x) => x.attributes['fw.process.id'] === s.attributes['fw.process.id']);
      expect(own.map((x) => x.name).sort()).toEqual([
        'create fw_process',
        'create fw_process_work_item',
        'process fw_process_work_item',
        'settle fw_process_work_item',
      ]);
      // Besides, at most the dispatch of a group of child reports to the root that this leaf's report led.
      for (const other of leafTrace.filter((x) => !own.includes(x)))
        expect([other.name, other.attributes['fw.process.id']]).toEqual(['process fw_process_outbox', rootId!]);
    }
    const aggregation = spans.find(
      (x) => x.name === 'process fw_process_work_item' && x.attributes['fw.worker.type'] === 'AGGREGATOR',
    );
    expect(aggregation?.traceId).toBe(rootCreate?.traceId);
    // The split's trace stays small: the root's own spans, the inline leaves' and the aggregation's.
    expect(traces.get(rootCreate!.traceId)!.length).toBeLessThan(4 * (THRESHOLD + SPLIT_BATCH) + 50);
  }, 300_000);
});
