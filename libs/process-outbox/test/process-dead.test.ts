import { ProcessStates, type ProcessDef } from '@fw/process-api';
import { makeJsonProcessConfigurator, makeProcessManager, processDb, type ProcessManager } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';

const DEFINITIONS: ProcessDef[] = [{ processType: 'job', leaf: true }];

describeEachDatabase('a START_WORKER command that always fails', (getDb) => {
  let manager: ProcessManager | undefined;
  afterAll(async () => {
    await manager?.close();
  });

  it('ends DEAD after max attempts and drives the process to its error state with an error record', async () => {
    const { database } = getDb();
    let calls = 0;
    manager = makeProcessManager({
      db: processDb(database),
      configurator: makeJsonProcessConfigurator({ definitions: DEFINITIONS }),
      workerStarter: {
        startWorker() {
          calls++;
          throw new Error('the queue is unreachable');
        },
      },
      outbox: { enabled: true, runDispatcher: false, maxAttempts: 3, backoff: () => 0 },
    });
    const created = (await manager.createProcess({ processDefName: 'job', args: { n: 1 } }, { tenant: null }))
      .mutatedEntity;
    expect(created.state.stateId).toBe(ProcessStates.EXECUTING);
    const dispatcher = manager.outbox!.makeDispatcher();
    for (let i = 0; i < 3; i++) await dispatcher.runOnce();
    await dispatcher.runOnce(); // the completion command written by the failure
    expect(calls).toBe(3);

    const { rows } = await sql<{ status: string; attempts: number; last_error: string }>`
      select status, attempts, last_error from fw_process_outbox where command_type = 'START_WORKER' and process_id = ${created.id}`.execute(
      database.db,
    );
    expect(rows).toEqual([{ status: 'DEAD', attempts: 3, last_error: 'the queue is unreachable' }]);
    const failed = (await manager.getProcess(created.id, { tenant: null })).mutatedEntity;
    expect(failed.state.stateId).toBe(ProcessStates.PROCESSED_WITH_ERRORS);
    expect(failed.errors).toHaveLength(1);
    expect(failed.errors[0]).toMatchObject({ processId: created.id, exceptionMessage: 'the queue is unreachable' });
    expect(failed.errors[0].errors[0]).toMatch(
      /EXECUTOR could not be started: outbox command START_WORKER .* is DEAD after 3 attempt\(s\)/,
    );
    const events = await sql<{
      n: string;
    }>`select count(*) as n from fw_process_completion_event where process_id = ${created.id}`.execute(database.db);
    expect(Number(events.rows[0].n)).toBe(1);
  });
});
