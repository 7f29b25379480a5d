import { isTerminalState, type Process, type ProcessDef } from '@fw/process-api';
import { makeJsonProcessConfigurator, makeProcessManager, processDb, type ProcessManager } from '@fw/process-service';
import {
  AggregatorBase,
  ExecutorBase,
  makeBatchService,
  makeManagerEventSink,
  SplitterBase,
  type ChildResult,
  type ChildSpec,
} from '@fw/process-utils';
import { describeEachDatabase } from '@fw/test-support';
import {
  batchServiceHandler,
  makeSinkFailureReporter,
  makeWorkItemRunner,
  makeWorkItemStarter,
  queueDepth,
  type WorkItemRunner,
} from '../src';
import { waitFor } from './support';

class SplitSum extends SplitterBase<{ parts: number[] }, { value: number }> {
  readonly processType = 'sum';
  split(input: { parts: number[] }): ChildSpec<{ value: number }>[] {
    return input.parts.map((value) => ({ processType: 'double', args: { value } }));
  }
}

class Double extends ExecutorBase<{ value: number }, { doubled: number }> {
  readonly processType = 'double';
  execute(input: { value: number }): { doubled: number } {
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

const DEFINITIONS: ProcessDef[] = [
  { processType: 'sum', leaf: false },
  { processType: 'double', leaf: true, parentProcessType: 'sum' },
  { processType: 'flaky', leaf: true },
];

describeEachDatabase('process runs through the work-item queue', (getDb) => {
  let manager: ProcessManager;
  let runner: WorkItemRunner;
  const flakyCalls: string[] = [];

  beforeAll(() => {
    const { database } = getDb();
    const starter = makeWorkItemStarter({ maxAttempts: 2 });
    manager = makeProcessManager({
      db: processDb(database),
      configurator: makeJsonProcessConfigurator({ definitions: DEFINITIONS }),
      workerStarter: starter,
    });
    const sink = makeManagerEventSink(manager);
    const runWorker = batchServiceHandler(
      makeBatchService({ workers: [new SplitSum(), new Double(), new AddUp()], sink }),
    );
    runner = makeWorkItemRunner({
      database,
      concurrency: 3,
      pollIntervalMillis: 30,
      leaseSeconds: 5,
      backoff: { baseMillis: 20 },
      // 'flaky' has no worker class: its handler always throws, so its item goes DEAD.
      handler: async (worker, ctx) => {
        if (worker.processType !== 'flaky') return runWorker(worker, ctx);
        flakyCalls.push(worker.processId);
        throw new Error('the flaky service is down');
      },
      onDead: makeSinkFailureReporter(sink),
    });
    starter.onEnqueued(() => runner.wake());
    runner.start();
  });

  afterAll(async () => {
    await runner.stop({ timeoutMillis: 2000 });
  });

  async function finished(id: string): Promise<Process> {
    let process: Process | undefined;
    await waitFor(
      async () => {
        process = (await manager.getProcess(id, { tenant: 't1' })).mutatedEntity;
        return isTerminalState(process.state.stateId);
      },
      15_000,
      `process ${id} to finish`,
    );
    return process!;
  }

  it('splits, executes and aggregates a process tree, each worker from a durable work item', async () => {
    const { database } = getDb();
    const created = await manager.createProcess(
      { processDefName: 'sum', args: { parts: [1, 2, 3, 4] } },
      { tenant: 't1' },
    );
    const done = await finished(created.mutatedEntity.id);
    expect(done.state.stateId).toBe('PROCESSED');
    expect(done.output).toEqual({ total: 20 });
    // The aggregator's item is acknowledged after its event committed: wait for that last ack.
    await waitFor(async () => (await queueDepth(database)).success === 6, 15_000, 'every work item acknowledged');
    const items = await database.db
      .selectFrom('fw_process_work_item' as never)
      .select(['worker_type' as never, 'status' as never, 'tenant' as never])
      .execute();
    // one splitter, four executors, one aggregator: all SUCCESS, all under the tenant
    expect(items).toHaveLength(6);
    expect(
      items.every((i) => (i as { status: string }).status === 'SUCCESS' && (i as { tenant: string }).tenant === 't1'),
    ).toBe(true);
    expect(await queueDepth(database)).toMatchObject({ pending: 0, running: 0, success: 6 });
  });

  it('retries a failing author step up to the attempts, then records the failure on the process', async () => {
    const created = await manager.createProcess({ processDefName: 'sum', args: { parts: [1, -1] } }, { tenant: 't1' });
    const done = await finished(created.mutatedEntity.id);
    expect(done.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(JSON.stringify(done.errors)).toContain(
      'negative value -1 (attempt 2 of 2; the previous attempt failed with:',
    );
    const failedItems = await getDb()
      .database.db.selectFrom('fw_process_work_item' as never)
      .select(['attempts' as never, 'last_error' as never])
      .where('status' as never, '=', 'DEAD' as never)
      .where('process_type' as never, '=', 'double' as never)
      .execute();
    // the first attempt failed and was retried (the starter's 2 attempts); the batch service
    // reported the second one, so the item is DEAD after it, not reported twice
    expect(failedItems).toEqual([{ attempts: 2, last_error: expect.stringContaining('negative value -1') }]);
  });

  it('reports a DEAD item to its process, which ends with the error instead of staying pending', async () => {
    const created = await manager.createProcess({ processDefName: 'flaky', args: {} }, { tenant: 't1' });
    const done = await finished(created.mutatedEntity.id);
    expect(done.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(flakyCalls.filter((id) => id === done.id)).toHaveLength(2);
    expect(done.errors).toHaveLength(1);
    expect(done.errors[0]!.exceptionMessage).toBe('the flaky service is down');
    expect(done.errors[0]!.errors[0]).toMatch(/EXECUTOR work item .* is DEAD after 2 attempt\(s\)/);
  });
});
