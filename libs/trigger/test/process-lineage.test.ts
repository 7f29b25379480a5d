import type { WorkerDto, WorkerStarter } from '@fw/process-api';
import {
  makeJsonProcessConfigurator,
  makeProcessEventHandlers,
  makeProcessManager,
  processDb,
  type ProcessManager,
  type ProcessTransaction,
} from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import {
  makeCronScheduler,
  makeCrontabStore,
  makeTriggerService,
  manualTriggerId,
  processCreateDispatch,
  type CronScheduler,
} from '@fw/trigger';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { freshTenant, waitFor } from './support';

/** A WorkerStarter that only records launches after commit (no workers run). */
function recordingStarter(): WorkerStarter<ProcessTransaction> & { started: WorkerDto[] } {
  const started: WorkerDto[] = [];
  return {
    started,
    startWorker(worker, context) {
      context.afterCommit(() => {
        started.push(worker);
      });
    },
  };
}

describeEachDatabase('trigger lineage through the process service', (getDb) => {
  let manager: ProcessManager;
  let scheduler: CronScheduler | undefined;

  beforeAll(() => {
    manager = makeProcessManager({
      db: processDb(getDb().database),
      configurator: makeJsonProcessConfigurator({ definitions: [{ processType: 'import', leaf: true }] }),
      workerStarter: recordingStarter(),
    });
  });
  afterAll(async () => {
    await scheduler?.stop();
    await manager.close();
  });

  function service() {
    return makeTriggerService({
      database: getDb().database,
      dispatch: processCreateDispatch(makeProcessEventHandlers(manager)),
    });
  }

  async function processesOf(
    triggerId: string,
  ): Promise<Array<{ id: string; tenant: string; process_type: string; input: unknown }>> {
    const { rows } = await sql<{
      id: string;
      tenant: string;
      process_type: string;
      input: unknown;
    }>`select id, tenant, process_type, input from fw_process where trigger_id = ${triggerId}`.execute(
      getDb().database.db,
    );
    return rows;
  }

  it('creates the process with the trigger id, the tenant and the args; a duplicate creates none', async () => {
    const triggers = service();
    const tenant = freshTenant();
    const triggerId = manualTriggerId(tenant, 'k1');
    const result = await triggers.trigger({
      source: 'MANUAL',
      triggerId,
      tenant,
      payload: { processDefName: 'import', args: { day: 3 } },
    });
    expect(result).toMatchObject({ dispatched: true, status: 'COMPLETED' });
    const processes = await processesOf(triggerId);
    expect(processes).toEqual([{ id: result.processId, tenant, process_type: 'import', input: { day: 3 } }]);
    expect((await manager.getProcess(result.processId ?? '', { tenant })).mutatedEntity).toMatchObject({
      triggerId,
      tenant,
    });
    expect((await triggers.getExecution(result.executionId ?? '', tenant))?.processId).toBe(result.processId);

    expect(
      (await triggers.trigger({ source: 'MANUAL', triggerId, tenant, payload: { processDefName: 'import' } }))
        .duplicate,
    ).toBe(true);
    expect(await processesOf(triggerId)).toHaveLength(1);
  });

  it('records FAILED with the process service’s error for an unknown process type', async () => {
    const triggers = service();
    const tenant = freshTenant();
    const result = await triggers.trigger({
      source: 'MANUAL',
      triggerId: manualTriggerId(tenant, 'bad'),
      tenant,
      payload: { processDefName: 'noSuchType' },
    });
    expect(result).toMatchObject({ dispatched: false, status: 'FAILED', failure: { code: 400, subErrorCode: 'P002' } });
    expect((await triggers.getExecution(result.executionId ?? '', tenant))?.status).toBe('FAILED');
  });

  it('a cron-created process carries the cron trigger id', async () => {
    const { database } = getDb();
    const triggers = service();
    const crontabs = makeCrontabStore(database);
    const tenant = freshTenant();
    const tab = await crontabs.add(tenant, {
      name: 'tick',
      cronExpression: '*/1 * * * * *',
      timezone: 'UTC',
      enabled: true,
      payload: { processDefName: 'import', args: { from: 'cron' } },
    });
    scheduler = makeCronScheduler({
      database,
      crontabs,
      triggerService: triggers,
      ownerId: `lineage-${randomUUID()}`,
      leaseName: `lease-${randomUUID()}`,
    });
    await scheduler.start();
    await waitFor(
      'a cron execution',
      async () =>
        (await triggers.listExecutions({ tenant, crontabId: tab.id, status: 'COMPLETED' }, { page: 0, size: 5 }))
          .totalElements >= 1,
      15_000,
    );
    await scheduler.stop();
    await crontabs.update(tab.id, tenant, { enabled: false });

    const execution = (
      await triggers.listExecutions({ tenant, crontabId: tab.id, status: 'COMPLETED' }, { page: 0, size: 5 })
    ).content[0];
    expect(execution.triggerId).toBe(`cron:${tab.id}:${execution.scheduledTime}`);
    const processes = await processesOf(execution.triggerId);
    expect(processes).toEqual([{ id: execution.processId, tenant, process_type: 'import', input: { from: 'cron' } }]);
  });
});
