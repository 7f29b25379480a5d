import { makeInVmProcessStarter } from '@fw/invm-process-starter';
import { WorkerType, type WorkerDto } from '@fw/process-api';
import { makeJsonProcessConfigurator, makeProcessManager, processDb, type ProcessManager } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';

const LEAVES = 300;
// Each leaf is a few transactions; on PGlite under a loaded 2-core CI machine 300 of them can take
// longer than the default 30 s, so this test gets a limit of its own.
const FAN_OUT_TIMEOUT_MS = 180_000;

describeEachDatabase('in-VM starter with the process manager', (getDb) => {
  it(
    `runs a fan-out of ${LEAVES} leaves to PROCESSED with every child counted once`,
    async () => {
      const starter = makeInVmProcessStarter({ concurrency: 4 });
      const manager: ProcessManager = makeProcessManager({
        db: processDb(getDb().database),
        configurator: makeJsonProcessConfigurator({
          definitions: [
            { processType: 'fan', leaf: false },
            { processType: 'leaf', leaf: true },
          ],
        }),
        workerStarter: starter,
      });
      // A minimal dispatcher talking to the manager directly (process-utils does this for real workers).
      starter.bind({
        async run(w: WorkerDto) {
          const send = (eventId: string, payload: unknown) =>
            manager.sendEvent(w.processId, eventId, payload, { tenant: w.tenant });
          if (w.workerType === WorkerType.SPLITTER)
            await send('splitDone', {
              subProcesses: Array.from({ length: LEAVES }, (_, i) => ({ processType: 'leaf', args: { i } })),
            });
          else if (w.workerType === WorkerType.EXECUTOR)
            await send('doneSuccessfully', { output: (w.input as { i: number }).i });
          else
            await send('aggregationDone', {
              output: (w.subProcessResults ?? []).reduce((s, r) => s + Number(r.output), 0),
            });
        },
      });
      const root = (await manager.createProcess({ processDefName: 'fan' }, { tenant: 'bench' })).mutatedEntity;
      await starter.idle();
      const done = (await manager.getProcess(root.id, { tenant: 'bench' })).mutatedEntity;
      expect(done).toMatchObject({
        state: { stateId: 'PROCESSED' },
        numSubProcesses: LEAVES,
        numCompletedSubProcesses: LEAVES,
        output: (LEAVES * (LEAVES - 1)) / 2,
      });
      expect(starter.stats()).toMatchObject({ enqueued: LEAVES + 2, dispatched: LEAVES + 2, failed: 0 });
    },
    FAN_OUT_TIMEOUT_MS,
  );
});
