/**
 * W3C trace context across a run, with real parts: the OpenTelemetry SDK started in this process as
 * a host starts it, exporting OTLP/JSON to a local receiver; a trigger fired here creates the
 * root; the workers run in another process (a spawned worker host with its own SDK). The spans of
 * trigger → root → split → leaves → aggregation → successor must form one trace (or, above
 * FW_TRACE_CHILDREN_INLINE, leaves' traces linked to the split). Without an SDK nothing is stored.
 */
import { createLogger, type Database } from '@fw/core';
import {
  makeJsonProcessConfigurator,
  makeProcessEventHandlers,
  makeProcessManager,
  processDb,
} from '@fw/process-service';
import { startTelemetry, type Telemetry } from '@fw/telemetry-node';
import {
  createTestDatabase,
  databaseTargets,
  exportedSpans,
  spawnScript,
  startOtlpReceiver,
  waitForTreeFinished,
  type ExportedSpan,
  type OtlpReceiver,
  type SpawnedScript,
  type TestDatabase,
} from '@fw/test-support';
import { makeTriggerService, processCreateDispatch } from '@fw/trigger';
import { sql } from 'kysely';
import * as path from 'node:path';
import { makeJdbcWorkerHost, makeWorkItemStarter } from '../src';
import { AddParts, SplitSum, SumPart } from './fixtures/sum-workers';
import { ReportSum, TRACED_DEFINITIONS } from './fixtures/traced-workers';

const FIXTURE = path.join(__dirname, 'fixtures', 'traced-worker-host.ts');
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/;

/** The trace_context of every row of the run of `rootId` (processes, work items, outbox commands). */
async function storedContexts(database: Database, rootId: string): Promise<(string | null)[]> {
  const { rows } = await sql<{ trace_context: string | null }>`
    with run as (select id from fw_process where id = ${rootId} or parent_id = ${rootId} or predecessor_id = ${rootId})
    select trace_context from fw_process where id in (select id from run)
    union all select trace_context from fw_process_work_item where process_id in (select id from run)
    union all select trace_context from fw_process_outbox where process_id in (select id from run)`.execute(
    database.db,
  );
  return rows.map((r) => r.trace_context);
}

/** The id of the successor of `rootId`, once it is PROCESSED. */
async function finishedSuccessor(database: Database, rootId: string, timeoutMillis: number, output: () => string) {
  for (const until = Date.now() + timeoutMillis; Date.now() < until;) {
    const { rows } = await sql<{ id: string }>`
      select id from fw_process where predecessor_id = ${rootId} and state_id = 'PROCESSED'`.execute(database.db);
    if (rows.length > 0) return rows[0].id;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the successor of ${rootId} did not finish: ${output()}`);
}

describe.each(databaseTargets())('trace context without an OpenTelemetry SDK [%s]', (target) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase(target);
  }, 60_000);
  afterAll(async () => {
    await testDb.dispose();
  }, 60_000);

  it('stores NULL with every process, work item and outbox command of a whole run', async () => {
    const host = makeJdbcWorkerHost({
      database: testDb.database,
      closeDatabase: false,
      configurator: makeJsonProcessConfigurator({ definitions: TRACED_DEFINITIONS }),
      workers: [new SplitSum(), new SumPart(1), new AddParts(), new ReportSum()],
      runner: { pollIntervalMillis: 20 },
      outbox: { pollIntervalMillis: 20 },
      logger: createLogger({ name: 'untraced-host', level: 'warn' }),
    });
    host.start();
    try {
      const created = await host.manager.createProcess(
        { processDefName: 'sum', args: { numbers: [1, 2, 3] } },
        { tenant: 't1' },
      );
      const rootId = created.mutatedEntity.id;
      await finishedSuccessor(testDb.database, rootId, 30_000, () => '');
      const contexts = await storedContexts(testDb.database, rootId);
      expect(contexts.length).toBeGreaterThanOrEqual(5 + 5);
      expect(contexts.filter((c) => c !== null)).toEqual([]);
    } finally {
      await host.stop({ drainMillis: 2000 });
    }
  }, 60_000);
});

/** The spans of one run, with lookups the assertions need. */
function spansOf(all: ExportedSpan[]) {
  const find = (predicate: (s: ExportedSpan) => boolean, what: string): ExportedSpan => {
    const found = all.filter(predicate);
    if (found.length !== 1)
      throw new Error(
        `expected one span ${what}, found ${found.length} among: ${all.map((s) => `${s.name} ${String(s.attributes['fw.process.id'])} ${String(s.attributes['fw.worker.type'])}`).join('; ')}`,
      );
    return found[0];
  };
  const of = (processId: string, name: string, workerType?: string) =>
    find(
      (s) =>
        s.name === name &&
        s.attributes['fw.process.id'] === processId &&
        (workerType === undefined || s.attributes['fw.worker.type'] === workerType),
      `${name} of ${processId}${workerType ? ` (${workerType})` : ''}`,
    );
  return { find, of };
}

// Registered only when FW_TEST_DATABASE_URL names a server: the worker host is another process.
for (const _target of databaseTargets().filter((t) => t === 'postgres')) {
  describe('trace context across processes: trigger here, workers in a spawned host [postgres]', () => {
    let testDb: TestDatabase;
    let receiver: OtlpReceiver;
    let telemetry: Telemetry;
    const saved = { ...process.env };
    const manager = () =>
      makeProcessManager({
        db: processDb(testDb.database),
        configurator: makeJsonProcessConfigurator({ definitions: TRACED_DEFINITIONS }),
        workerStarter: makeWorkItemStarter(),
        logger: createLogger({ name: 'trace-test', level: 'warn' }),
      });

    beforeAll(async () => {
      testDb = await createTestDatabase('postgres');
      receiver = await startOtlpReceiver();
      Object.assign(process.env, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      });
      telemetry = await startTelemetry({ serviceName: 'fw-trace-test' });
    }, 60_000);
    afterAll(async () => {
      await telemetry?.shutdown();
      process.env = saved;
      await receiver?.close();
      await testDb?.dispose();
    }, 60_000);

    /** Fires a trigger for a `sum` of `numbers` with a spawned host running the workers; the spans of the run. */
    async function tracedRun(numbers: number[], hostEnv: Record<string, string> = {}) {
      const host: SpawnedScript = spawnScript(FIXTURE, [testDb.url], {
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_BSP_SCHEDULE_DELAY: '100',
          ...hostEnv,
        },
      });
      const processes = manager();
      try {
        await host.waitFor(/READY/, 60_000);
        const triggers = makeTriggerService({
          database: testDb.database,
          dispatch: processCreateDispatch(makeProcessEventHandlers(processes)),
        });
        const triggerId = `manual:t1:trace-${numbers.length}-${Date.now()}`;
        const fired = await triggers.trigger({
          source: 'MANUAL',
          triggerId,
          tenant: 't1',
          payload: { processDefName: 'sum', args: { numbers } },
        });
        const rootId = fired.processId as string;
        expect(rootId).toBeDefined();
        await waitForTreeFinished(testDb.database, rootId, 60_000, () => host.output());
        const successorId = await finishedSuccessor(testDb.database, rootId, 30_000, () => host.output());
        const { rows: children } = await sql<{ id: string }>`
          select id from fw_process where parent_id = ${rootId} order by seq`.execute(testDb.database.db);
        const stored = await storedContexts(testDb.database, rootId);
        host.child.kill('SIGTERM');
        expect(await host.exited).toBe(0);
        await telemetry.forceFlush();
        return {
          triggerId,
          rootId,
          successorId,
          childIds: children.map((c) => c.id),
          stored,
          spans: exportedSpans(receiver.received),
        };
      } finally {
        if (host.child.exitCode === null) host.child.kill('SIGKILL');
        await processes.close();
      }
    }

    it('records trigger → root → split → leaves → aggregation → successor as one trace with the right parents', async () => {
      const run = await tracedRun([1, 2, 3]);
      const { find, of } = spansOf(run.spans);
      const trigger = find(
        (s) => s.name === 'fw.trigger' && s.attributes['fw.trigger.id'] === run.triggerId,
        'fw.trigger',
      );
      const traceId = trigger.traceId;
      const ids = new Set([run.rootId, run.successorId, ...run.childIds]);
      const runSpans = run.spans.filter((s) => ids.has(String(s.attributes['fw.process.id'])));
      // create + launch/process/settle of splitter and aggregator + outbox commands + leaves + successor
      expect(runSpans.length).toBeGreaterThanOrEqual(1 + 2 * 3 + 3 * 4 + 4);
      expect(new Set(runSpans.map((s) => s.traceId))).toEqual(new Set([traceId]));

      const rootCreate = of(run.rootId, 'create fw_process');
      expect(rootCreate.parentSpanId).toBe(trigger.spanId);
      expect(rootCreate.attributes).toMatchObject({
        'messaging.operation.type': 'create',
        'messaging.system': 'fw',
        'fw.tenant': 't1',
        'fw.process.type': 'sum',
        'fw.trigger.id': run.triggerId,
      });
      // The splitter: launched under the root's creation, executed in the other process.
      const splitLaunch = of(run.rootId, 'create fw_process_work_item', 'SPLITTER');
      expect(splitLaunch.parentSpanId).toBe(rootCreate.spanId);
      const splitProcess = of(run.rootId, 'process fw_process_work_item', 'SPLITTER');
      expect(splitProcess.parentSpanId).toBe(splitLaunch.spanId);
      expect(splitProcess.resource['service.name']).toBe('fw-traced-worker-host');
      expect(of(run.rootId, 'settle fw_process_work_item', 'SPLITTER').parentSpanId).toBe(splitProcess.spanId);
      // Each leaf: created by the split, launched, executed, acknowledged.
      for (const childId of run.childIds) {
        const create = of(childId, 'create fw_process');
        expect(create.parentSpanId).toBe(splitProcess.spanId);
        expect(create.attributes['fw.process.type']).toBe('sum-part');
        const launch = of(childId, 'create fw_process_work_item', 'EXECUTOR');
        expect(launch.parentSpanId).toBe(create.spanId);
        const processing = of(childId, 'process fw_process_work_item', 'EXECUTOR');
        expect(processing.parentSpanId).toBe(launch.spanId);
        expect(of(childId, 'settle fw_process_work_item', 'EXECUTOR').parentSpanId).toBe(processing.spanId);
      }
      // The aggregator continues the root's context, whichever leaf finished last.
      expect(of(run.rootId, 'create fw_process_work_item', 'AGGREGATOR').parentSpanId).toBe(rootCreate.spanId);
      // The successor: created by the root's PROCESS_COMPLETED command (executed under the root's context).
      const successorCreate = of(run.successorId, 'create fw_process');
      const completed = find((s) => s.spanId === successorCreate.parentSpanId, 'parent of the successor');
      expect(completed).toMatchObject({ name: 'process fw_process_outbox', parentSpanId: rootCreate.spanId });
      expect(completed.attributes['fw.process.id']).toBe(run.rootId);
      // Stored: the processes and their work items carry a W3C traceparent of this trace.
      const stored = run.stored.filter((c): c is string => c !== null);
      expect(stored.length).toBeGreaterThanOrEqual(2 * 5);
      for (const c of stored) {
        expect(c).toMatch(TRACEPARENT);
        expect(c.split('-')[1]).toBe(traceId);
      }
    }, 120_000);

    it('above FW_TRACE_CHILDREN_INLINE starts each leaf in a trace of its own, linked to the split', async () => {
      const run = await tracedRun([1, 2, 3, 4, 5], { FW_TRACE_CHILDREN_INLINE: '2' });
      const { find, of } = spansOf(run.spans);
      const trigger = find(
        (s) => s.name === 'fw.trigger' && s.attributes['fw.trigger.id'] === run.triggerId,
        'fw.trigger',
      );
      const splitProcess = of(run.rootId, 'process fw_process_work_item', 'SPLITTER');
      expect(splitProcess.traceId).toBe(trigger.traceId);
      const leafTraces = new Set<string>();
      for (const childId of run.childIds) {
        const create = of(childId, 'create fw_process');
        expect(create.traceId).not.toBe(trigger.traceId);
        expect(create.parentSpanId ?? '').toBe('');
        expect(create.links).toMatchObject([
          { traceId: trigger.traceId, spanId: splitProcess.spanId, attributes: { 'fw.link': 'split' } },
        ]);
        // The leaf's own spans stay in its trace.
        const processing = of(childId, 'process fw_process_work_item', 'EXECUTOR');
        expect(processing.traceId).toBe(create.traceId);
        leafTraces.add(create.traceId);
      }
      expect(leafTraces.size).toBe(5);
      // The aggregation and the successor stay in the root's trace.
      expect(of(run.rootId, 'process fw_process_work_item', 'AGGREGATOR').traceId).toBe(trigger.traceId);
      expect(of(run.successorId, 'create fw_process').traceId).toBe(trigger.traceId);
    }, 120_000);
  });
}
