import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import { startFanOutStack, type FanOutStack } from './fan-out-stack';
import { summarize, sumTo, waitFor } from './checks';

describeEachDatabase('fan-out through the outbox and the work-item queue', (getDb) => {
  let stack: FanOutStack | undefined;
  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
  });

  it('completes the tree exactly once: counters, one completion event each, one successor, all commands DONE with receipts', async () => {
    const { database } = getDb();
    stack = startFanOutStack(database);
    const completed: string[] = [];
    stack.manager.onProcessCompleted((event) => {
      completed.push(event.processType);
    });
    const root = (await stack.manager.createProcess({ processDefName: 'fan', args: { leaves: 60 } }, { tenant: 't1' }))
      .mutatedEntity;
    await waitFor(
      async () => (await summarize(database, root.id)).successors.some((s) => s.state_id === 'PROCESSED'),
      60_000,
      'root and successor done',
    );
    await waitFor(
      async () => {
        const { outbox, workItems } = await summarize(database, root.id);
        return (
          outbox.PENDING === undefined &&
          outbox.RUNNING === undefined &&
          workItems.SUCCESS === 63 &&
          Object.keys(workItems).length === 1
        );
      },
      60_000,
      'outbox and work items drained',
    );

    const s = await summarize(database, root.id);
    expect(s).toMatchObject({
      rootState: 'PROCESSED',
      numSubProcesses: 60,
      numCompletedSubProcesses: 60,
      leavesProcessed: 60,
      childReports: 60,
      completionAnomalies: 0,
    });
    expect(s.output).toEqual({ sum: sumTo(60), children: 60 });
    expect(s.successors).toHaveLength(1);
    expect(s.outbox.DEAD).toBeUndefined();
    expect(s.outbox.RUNNING).toBeUndefined();
    expect(s.workItems).toEqual({ SUCCESS: 60 + 2 + 1 });
    const { rows } = await sql<{ missing: string }>`select count(*) as missing from fw_process_outbox o
      where not exists (select 1 from fw_process_receipt r where r.command_id = o.id)`.execute(database.db);
    expect(Number(rows[0].missing)).toBe(0);
    await waitFor(() => completed.filter((t) => t === 'after-fan').length === 1, 30_000, 'listener of the successor');
    expect(completed.filter((t) => t === 'fan')).toHaveLength(1);
    expect(completed.filter((t) => t === 'leaf')).toHaveLength(60);
  }, 90_000);

  it('writes nothing to the outbox when the state change rolls back', async () => {
    const { database } = getDb();
    stack = startFanOutStack(database);
    const before = await sql<{ n: string }>`select count(*) as n from fw_process_outbox`.execute(database.db);
    await expect(stack.manager.createProcess({ processDefName: 'nope' })).rejects.toMatchObject({ code: 400 });
    const after = await sql<{ n: string }>`select count(*) as n from fw_process_outbox`.execute(database.db);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});
