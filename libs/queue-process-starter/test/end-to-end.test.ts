import { currentTenantId } from '@fw/core';
import { isTerminalState, ProcessEvents, type Process, type ProcessDef, type WorkerStarter } from '@fw/process-api';
import {
  makeJsonProcessConfigurator,
  makeProcessManager,
  processDb,
  type ProcessManager,
  type ProcessTransaction,
} from '@fw/process-service';
import {
  AggregatorBase,
  ExecutorBase,
  makeBatchService,
  makeManagerEventSink,
  SplitterBase,
  type ChildResult,
  type ChildSpec,
  type ProcessEventSink,
} from '@fw/process-utils';
import * as path from 'node:path';
import {
  createTestDatabase,
  databaseTargets,
  describeEachDatabase,
  spawnScript,
  stopMidTree,
  waitForTreeFinished,
  type SpawnedScript,
  type TestDatabase,
} from '@fw/test-support';
import {
  makeQueueProcessStarter,
  makeQueueWorkerConsumer,
  QueueConfigError,
  QueueHeaders,
  type QueueProcessStarter,
  type QueueWorkerConsumer,
} from '../src';
import {
  BROKER_URL,
  closeConnectionsNamed,
  openTestQueues,
  uniqueConnectionName,
  waitFor,
  type TestQueues,
} from './support';

const executedUnder: Array<string | undefined> = [];
/** How long each executor takes; a test raises it to have steps running when the connection drops. */
let executeMillis = 0;

class SplitSum extends SplitterBase<{ parts: number[] }, { value: number }> {
  readonly processType = 'sum';
  split(input: { parts: number[] }): ChildSpec<{ value: number }>[] {
    return input.parts.map((value) => ({ processType: 'double', args: { value } }));
  }
}

class Double extends ExecutorBase<{ value: number }, { doubled: number }> {
  readonly processType = 'double';
  async execute(input: { value: number }): Promise<{ doubled: number }> {
    executedUnder.push(currentTenantId());
    if (executeMillis > 0) await new Promise((resolve) => setTimeout(resolve, executeMillis));
    if (input.value < 0) throw new Error(`negative value ${input.value}`);
    return { doubled: input.value * 2 };
  }
}

class AddUp extends AggregatorBase<{ parts: number[] }, { doubled: number }, { total: number }> {
  readonly processType = 'sum';
  aggregate(_input: { parts: number[] }, children: ChildResult<{ doubled: number }>[]): { total: number } {
    return { total: children.reduce((sum, c) => sum + (c.output?.doubled ?? 0), 0) };
  }
}

describeEachDatabase('a process tree runs through RabbitMQ', (getDb) => {
  let queues: TestQueues;
  let starter: QueueProcessStarter;
  let consumer: QueueWorkerConsumer;
  let manager: ProcessManager;
  let sumQueue: string;
  let doubleQueue: string;
  let parkedQueue: string;
  const consumerConnection = uniqueConnectionName('end-to-end consumer');
  /** The events the manager accepted (a refused one, e.g. a second completion of a step, throws and is not listed). */
  const accepted: Array<{ processId: string; eventId: string }> = [];

  beforeAll(async () => {
    queues = await openTestQueues();
    sumQueue = queues.name('sum');
    doubleQueue = queues.name('double');
    parkedQueue = queues.name('parked'); // nobody consumes it: its messages are inspected by the tests
    const definitions: ProcessDef[] = [
      { processType: 'sum', leaf: false, config: { queue: sumQueue } },
      { processType: 'double', leaf: true, parentProcessType: 'sum', config: { queue: doubleQueue } },
      { processType: 'parked', leaf: true, config: { queue: parkedQueue } },
      { processType: 'doomed', leaf: true, config: { queue: parkedQueue } },
      { processType: 'queueless', leaf: true, config: { batchSize: '10' } },
    ];
    starter = makeQueueProcessStarter({ url: BROKER_URL });
    // 'doomed' fails its state change after the queue starter registered the publish: the rollback must publish nothing
    const workerStarter: WorkerStarter<ProcessTransaction> = {
      async startWorker(worker, context) {
        await starter.startWorker(worker, context);
        if (worker.processType === 'doomed') throw new Error('the state change fails after the launch was registered');
      },
    };
    const { database } = getDb();
    manager = makeProcessManager({
      db: processDb(database),
      configurator: makeJsonProcessConfigurator({ definitions }),
      workerStarter,
    });
    const managerSink = makeManagerEventSink(manager);
    const sink: ProcessEventSink = {
      async deliver(processId, eventId, payload, tenant) {
        await managerSink.deliver(processId, eventId, payload, tenant);
        accepted.push({ processId, eventId });
      },
    };
    consumer = makeQueueWorkerConsumer({
      url: BROKER_URL,
      connectionName: consumerConnection,
      queues: [sumQueue, doubleQueue],
      batchService: makeBatchService({ workers: [new SplitSum(), new Double(), new AddUp()], sink }),
      sink,
      prefetch: 2,
      retryDelay: { baseMillis: 20, maxMillis: 200 },
    });
    await consumer.start();
    await queues.declare(parkedQueue);
  });

  afterAll(async () => {
    await consumer?.stop({ timeoutMillis: 5000 });
    await starter?.close();
    await queues?.cleanup();
  });

  async function finished(id: string, tenant: string): Promise<Process> {
    let process: Process | undefined;
    await waitFor(
      async () => {
        process = (await manager.getProcess(id, { tenant })).mutatedEntity;
        return isTerminalState(process.state.stateId);
      },
      20_000,
      `process ${id} to finish`,
    );
    return process as Process;
  }

  it('splits, executes and aggregates, every worker through the broker, under the tenant', async () => {
    executedUnder.length = 0;
    const created = await manager.createProcess(
      { processDefName: 'sum', args: { parts: [1, 2, 3, 4] } },
      { tenant: 't1' },
    );
    const done = await finished(created.mutatedEntity.id, 't1');
    expect(done.state.stateId).toBe('PROCESSED');
    expect(done.output).toEqual({ total: 20 });
    expect(done).toMatchObject({ tenant: 't1', numSubProcesses: 4, numCompletedSubProcesses: 4 });
    const tree = await manager.getProcessTree(done.id, { tenant: 't1', recursive: true });
    expect(tree.map((p) => [p.tenant, p.state.stateId])).toEqual(tree.map(() => ['t1', 'PROCESSED']));
    // every executor ran under the tenant (at least once each: delivery is at-least-once)
    expect(executedUnder.length).toBeGreaterThanOrEqual(4);
    expect(new Set(executedUnder)).toEqual(new Set(['t1']));
    await waitFor(() => consumer.stats().inFlight === 0, 10_000, 'the consumer to settle');
    expect(await queues.depth(sumQueue)).toBe(0);
    expect(await queues.depth(doubleQueue)).toBe(0);
  });

  it('records a worker failure on the process', async () => {
    const created = await manager.createProcess({ processDefName: 'sum', args: { parts: [5, -1] } }, { tenant: 't2' });
    const done = await finished(created.mutatedEntity.id, 't2');
    expect(done.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(JSON.stringify(done.errors)).toContain('INVOCATION_FAILURE: negative value -1');
  });

  it('records a malformed message on its process instead of leaving it pending', async () => {
    const created = await manager.createProcess({ processDefName: 'parked', args: { n: 1 } }, { tenant: 't3' });
    const id = created.mutatedEntity.id;
    expect(created.mutatedEntity.state.stateId).toBe('EXECUTING');
    const launched = await queues.get(parkedQueue); // the real launch, published after the commit
    if (launched === false) throw new Error('the EXECUTOR launch was not published');
    expect(launched.properties.headers).toMatchObject({
      [QueueHeaders.processId]: id,
      [QueueHeaders.tenant]: 't3',
      [QueueHeaders.workerType]: 'EXECUTOR',
    });
    // the same launch, corrupted on the way, reaches a consumer
    await queues.publishRaw(
      doubleQueue,
      launched.content.toString('utf8').slice(0, 20),
      launched.properties.headers as Record<string, string>,
    );
    const done = await finished(id, 't3');
    expect(done.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(done.errors).toHaveLength(1);
    expect(done.errors[0]?.errors).toEqual(['MALFORMED_PAYLOAD: worker message is not valid JSON']);
    await waitFor(() => consumer.stats().inFlight === 0, 10_000, 'the consumer to settle');
    expect(await queues.depth(doubleQueue)).toBe(0); // acked, not redelivered
  });

  it('publishes nothing when the state change that launched the worker rolls back', async () => {
    expect(await queues.depth(parkedQueue)).toBe(0);
    await expect(manager.createProcess({ processDefName: 'doomed', args: {} }, { tenant: 't4' })).rejects.toThrow(
      'the state change fails after the launch was registered',
    );
    await manager.createProcess({ processDefName: 'parked', args: {} }, { tenant: 't4' }); // a committed one, as a marker
    expect(await queues.depth(parkedQueue)).toBe(1);
    const only = await queues.get(parkedQueue);
    expect(only && JSON.parse(only.content.toString('utf8'))).toMatchObject({ processType: 'parked' });
  });

  it("finishes every process, each step exactly once, when the broker closes the consumer's connection mid-run", async () => {
    const create = (n: number) =>
      manager.createProcess({ processDefName: 'sum', args: { parts: [n, n + 1, n + 2] } }, { tenant: 't6' });
    executeMillis = 300; // so that steps are still running when the connection goes
    try {
      const before = await Promise.all([1, 2, 3].map(create));
      await waitFor(() => consumer.stats().inFlight > 0, 15_000, 'steps running');
      expect(await closeConnectionsNamed(consumerConnection)).toBe(1);
      await waitFor(
        () => consumer.stats().reconnects >= 1 && consumer.stats().state === 'connected',
        30_000,
        'the consumer to reconnect',
      );
      const after = await Promise.all([4, 5, 6].map(create));
      for (const [index, created] of [...before, ...after].entries()) {
        const n = index + 1;
        const done = await finished(created.mutatedEntity.id, 't6');
        expect(done.state.stateId).toBe('PROCESSED');
        expect(done.output).toEqual({ total: 2 * (3 * n + 3) });
        expect(done).toMatchObject({ numSubProcesses: 3, numCompletedSubProcesses: 3 });
        const tree = await manager.getProcessTree(done.id, { tenant: 't6', recursive: true });
        const expected = tree.map(
          (p) =>
            [
              p.id,
              p.id === done.id
                ? [ProcessEvents.splitDone, ProcessEvents.aggregationDone]
                : [ProcessEvents.doneSuccessfully],
            ] as const,
        );
        const acceptedFor = (id: string) => accepted.filter((e) => e.processId === id).map((e) => e.eventId);
        // the sink records an event once the manager's call returned, which can be a moment after the state is visible
        await waitFor(
          () => expected.every(([id, events]) => acceptedFor(id).length >= events.length),
          15_000,
          'the accepted events to be recorded',
        );
        // a step that ran twice (redelivered after the drop) still completed its process once
        for (const [id, events] of expected) expect(acceptedFor(id)).toEqual(events);
      }
      expect(consumer.stats()).toMatchObject({ state: 'connected', consuming: true });
    } finally {
      executeMillis = 0;
    }
  });

  it('refuses to start a process whose definition names no queue (the create rolls back)', async () => {
    const error: unknown = await manager
      .createProcess({ processDefName: 'queueless', args: {} }, { tenant: 't5' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueueConfigError);
    expect((error as Error).message).toContain("process type 'queueless' has no config.queue");
  });
});

/**
 * SIGTERM in the middle of a running tree, with real processes, PostgreSQL and RabbitMQ: the
 * README's RabbitMQ worker host stops consuming, drains, closes its channel (the broker puts the
 * unfinished messages back at once), closes the publisher, the manager and the pool, and exits by
 * itself by itself (within the drain plus a few seconds, well inside a container's kill timeout); a second host finishes the tree, each child counted once.
 */
const FIXTURE = path.join(__dirname, 'fixtures/queue-worker-host.ts');
const NUMBERS = Array.from({ length: 12 }, (_, i) => i + 1);
const DRAIN_MILLIS = 300;

// Registered only when FW_TEST_DATABASE_URL names a server: two processes share one database.
for (const _target of databaseTargets().filter((t) => t === 'postgres')) {
  describe('RabbitMQ worker host stopped by SIGTERM mid-tree (real processes) [postgres]', () => {
    let testDb: TestDatabase;
    let queues: TestQueues;
    beforeAll(async () => {
      testDb = await createTestDatabase('postgres');
      queues = await openTestQueues();
    }, 60_000);
    afterAll(async () => {
      await queues?.cleanup();
      await testDb?.dispose();
    }, 60_000);

    function startHost(stepMillis: number, numbers?: number[]): SpawnedScript {
      return spawnScript(FIXTURE, [
        testDb.url,
        BROKER_URL,
        queues.name('sum'),
        queues.name('sum-part'),
        String(stepMillis),
        String(DRAIN_MILLIS),
        ...(numbers ? [numbers.join(',')] : []),
      ]);
    }

    it('drains, requeues what it held and exits by itself soon after the drain; a second host completes the tree exactly once', async () => {
      const first = startHost(1500, NUMBERS);
      const { rootId, interrupted, exitCode, stopMillis } = await stopMidTree(first);
      expect(interrupted).toBeGreaterThan(0);
      expect(exitCode).toBe(0);
      // Well inside a container's 10 s kill timeout; the figure on an idle machine is printed below.
      expect(stopMillis).toBeLessThan(DRAIN_MILLIS + 6_000);
      expect(first.output()).not.toContain('still keeps the process alive');

      const second = startHost(50);
      try {
        const tree = await waitForTreeFinished(testDb.database, rootId, 30_000, () => second.output());
        expect(tree).toMatchObject({
          stateId: 'PROCESSED',
          output: { total: NUMBERS.reduce((a, b) => a + b, 0), parts: NUMBERS.length },
          numCompletedSubProcesses: NUMBERS.length,
        });
        expect(tree.childStates).toEqual({ PROCESSED: NUMBERS.length });
        expect(tree.childReports).toEqual({ total: NUMBERS.length, distinctChildren: NUMBERS.length });
        process.stdout.write(
          `queue worker host stop: ${stopMillis} ms after SIGTERM (drain ${DRAIN_MILLIS} ms, ${interrupted} step(s) interrupted); tree resumed and finished in ${tree.millis} ms\n`,
        );
      } finally {
        second.child.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      }
    }, 120_000);
  });
}
