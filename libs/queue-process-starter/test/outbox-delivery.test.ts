/**
 * In outbox mode a launch through RabbitMQ is part of its START_WORKER command: the command stays
 * claimed until the broker confirmed the publish, a failed publish is retried with the outbox's
 * backoff (however long the broker is away), and after the last attempt the command is DEAD with
 * the error on the process — never DONE without delivery. The broker is reached through a TCP relay
 * the test cuts and restores.
 */
import { isTerminalState, type Process, type ProcessDef } from '@fw/process-api';
import { makeJsonProcessConfigurator, makeProcessManager, processDb, type ProcessManager } from '@fw/process-service';
import { ExecutorBase, makeBatchService, makeManagerEventSink } from '@fw/process-utils';
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import {
  makeQueueProcessStarter,
  makeQueueWorkerConsumer,
  type QueueProcessStarter,
  type QueueWorkerConsumer,
} from '../src';
import { BROKER_URL, openBrokerRelay, openTestQueues, waitFor, type BrokerRelay, type TestQueues } from './support';

type OutboxDispatcher = ReturnType<NonNullable<ProcessManager['outbox']>['makeDispatcher']>;

class Echo extends ExecutorBase<{ n: number }, { n: number }> {
  readonly processType = 'echo';
  async execute(input: { n: number }): Promise<{ n: number }> {
    return { n: input.n };
  }
}

describeEachDatabase('outbox delivery through RabbitMQ', (getDb) => {
  let queues: TestQueues;
  let relay: BrokerRelay;
  let starter: QueueProcessStarter;
  let consumer: QueueWorkerConsumer;
  let manager: ProcessManager;
  /** The dispatcher draining `manager`'s commands (replaced while a test needs the outbox to itself). */
  let dispatcher: OutboxDispatcher | undefined;

  beforeAll(async () => {
    queues = await openTestQueues();
    relay = await openBrokerRelay();
    const definitions: ProcessDef[] = [{ processType: 'echo', leaf: true, config: { queue: queues.name('echo') } }];
    // A publish gives up fast (2 tries): the outbox, not the starter, carries the launch across a long outage.
    starter = makeQueueProcessStarter({
      url: relay.url,
      publishAttempts: 2,
      reconnectDelay: { baseMillis: 20, maxMillis: 50 },
      confirmTimeoutMillis: 2000,
    });
    const { database } = getDb();
    manager = makeProcessManager({
      db: processDb(database),
      configurator: makeJsonProcessConfigurator({ definitions }),
      workerStarter: starter,
      outbox: {
        enabled: true,
        runDispatcher: true,
        pollIntervalMillis: 50,
        maxAttempts: 6,
        backoff: () => 150,
        lockSeconds: 30,
      },
    });
    const sink = makeManagerEventSink(manager);
    // The consumer talks to the broker directly: only the publishing side loses the broker.
    consumer = makeQueueWorkerConsumer({
      url: BROKER_URL,
      queues: [queues.name('echo')],
      batchService: makeBatchService({ workers: [new Echo()], sink }),
      sink,
      retryDelay: { baseMillis: 20, maxMillis: 200 },
    });
    await consumer.start();
    dispatcher = manager.outbox?.dispatcher;
  });

  afterAll(async () => {
    if (dispatcher !== manager?.outbox?.dispatcher) await dispatcher?.stop();
    await manager?.close();
    await consumer?.stop({ timeoutMillis: 5000 });
    await starter?.close();
    await relay?.close();
    await queues?.cleanup();
  });

  async function finished(id: string): Promise<Process> {
    let process: Process | undefined;
    await waitFor(
      async () => {
        process = (await manager.getProcess(id, { tenant: 'outbox' })).mutatedEntity;
        return isTerminalState(process.state.stateId);
      },
      30_000,
      `process ${id} to finish`,
    );
    return process as Process;
  }

  async function outboxRowsOf(
    processId: string,
  ): Promise<Array<{ status: string; attempts: number; last_error: string | null }>> {
    const { database } = getDb();
    const rows = await sql<{
      status: string;
      attempts: number;
      last_error: string | null;
    }>`select status, attempts, last_error from fw_process_outbox where process_id = ${processId} and command_type = 'START_WORKER'`.execute(
      database.db,
    );
    return rows.rows.map((r) => ({ ...r, attempts: Number(r.attempts) }));
  }

  it("rides out an outage shorter than the starter's retry window within the first attempt", async () => {
    const slow = makeQueueProcessStarter({
      url: relay.url,
      publishAttempts: 20,
      reconnectDelay: { baseMillis: 50, maxMillis: 100 },
      confirmTimeoutMillis: 2000,
    });
    const { database } = getDb();
    const patient = makeProcessManager({
      db: processDb(database),
      configurator: makeJsonProcessConfigurator({
        definitions: [{ processType: 'echo', leaf: true, config: { queue: queues.name('echo') } }],
      }),
      workerStarter: slow,
      outbox: {
        enabled: true,
        runDispatcher: true,
        pollIntervalMillis: 50,
        maxAttempts: 6,
        backoff: () => 150,
        lockSeconds: 30,
      },
    });
    // Only the patient manager's dispatcher may claim the command: the suite's own (2 publish tries)
    // would fail it during the cut and count attempts of its own.
    await dispatcher?.stop();
    try {
      relay.cut();
      const created = await patient.createProcess({ processDefName: 'echo', args: { n: 3 } }, { tenant: 'outbox' });
      setTimeout(() => relay.restore(), 300);
      const done = await finished(created.mutatedEntity.id);
      expect(done.state.stateId).toBe('PROCESSED');
      await waitFor(
        async () => (await outboxRowsOf(created.mutatedEntity.id))[0]?.status === 'DONE',
        10_000,
        'the command to be DONE',
      );
      expect(await outboxRowsOf(created.mutatedEntity.id)).toEqual([{ status: 'DONE', attempts: 1, last_error: null }]);
    } finally {
      relay.restore();
      await patient.close();
      await slow.close();
      dispatcher = manager.outbox?.makeDispatcher();
      dispatcher?.start();
    }
  });

  it('keeps the launch while the broker is away longer than the starter retries, and delivers it once the broker is back', async () => {
    relay.cut();
    const failedBefore = starter.stats().failed;
    const created = await manager.createProcess({ processDefName: 'echo', args: { n: 7 } }, { tenant: 'outbox' });
    const id = created.mutatedEntity.id;
    // Several delivery attempts fail (each after the starter's own two tries) while the command stays PENDING.
    await waitFor(() => starter.stats().failed >= failedBefore + 2, 20_000, 'two failed delivery attempts');
    const waiting = await outboxRowsOf(id);
    expect(waiting).toHaveLength(1);
    expect(waiting[0].status).not.toBe('DONE');
    expect(waiting[0].last_error).toMatch(/.+/);
    expect((await manager.getProcess(id, { tenant: 'outbox' })).mutatedEntity.state.stateId).toBe('EXECUTING');
    relay.restore();
    const done = await finished(id);
    expect(done.state.stateId).toBe('PROCESSED');
    expect(done.output).toEqual({ n: 7 });
    // The worker may finish before the dispatcher's acknowledgement commits: wait for it.
    await waitFor(
      async () => (await outboxRowsOf(id))[0]?.status === 'DONE',
      10_000,
      'the START_WORKER command to be DONE',
    );
    const rows = await outboxRowsOf(id);
    expect(rows.map((r) => r.status)).toEqual(['DONE']);
    expect(rows[0].attempts).toBeGreaterThanOrEqual(3);
  });

  it('ends DEAD with the error on the process when the broker is gone for good', async () => {
    relay.cut();
    try {
      const created = await manager.createProcess({ processDefName: 'echo', args: { n: 1 } }, { tenant: 'outbox' });
      const done = await finished(created.mutatedEntity.id);
      expect(done.state.stateId).toBe('PROCESSED_WITH_ERRORS');
      expect(JSON.stringify(done.errors)).toMatch(
        /EXECUTOR could not be started: outbox command START_WORKER .* is DEAD after 6 attempt\(s\)/,
      );
      expect((await outboxRowsOf(created.mutatedEntity.id)).map((r) => r.status)).toEqual(['DEAD']);
    } finally {
      relay.restore();
    }
  });
});
