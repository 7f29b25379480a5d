import { makeInVmProcessStarter } from '@fw/invm-process-starter';
import type { WorkerDto } from '@fw/process-api';
import { makeJsonProcessConfigurator, makeProcessManager, processDb } from '@fw/process-service';
import { makeBatchService, makeManagerEventSink } from '@fw/process-utils';
import { describeEachDatabase } from '@fw/test-support';
import { DEFINITIONS, exampleWorkers } from './workers';

describeEachDatabase('redelivered worker messages', (getDb) => {
  it('a splitter delivered three times creates and counts its children once (deterministic child ids)', async () => {
    const launched: WorkerDto[] = [];
    const starter = makeInVmProcessStarter();
    const manager = makeProcessManager({
      db: processDb(getDb().database),
      configurator: makeJsonProcessConfigurator({ definitions: DEFINITIONS }),
      workerStarter: { startWorker: (w, ctx) => (launched.push(structuredClone(w)), starter.startWorker(w, ctx)) },
    });
    const batchService = makeBatchService({ workers: exampleWorkers(), sink: makeManagerEventSink(manager) });
    const book = (
      await manager.createProcess(
        { processDefName: 'book', args: { title: 'R', chapters: ['a', 'b c', 'd e f'] } },
        { tenant: 'r' },
      )
    ).mutatedEntity;
    const splitter = launched.find((w) => w.processId === book.id && w.workerType === 'SPLITTER')!;

    const first = await batchService.run(splitter);
    const second = await batchService.run(splitter);
    expect(first.events).toEqual(['splitPartiallyDone', 'splitDone']);
    expect(second).toMatchObject({ status: 'succeeded', events: ['splitPartiallyDone', 'splitDone'] });
    const pending = (await manager.getProcess(book.id, { tenant: 'r' })).mutatedEntity;
    expect(pending).toMatchObject({
      state: { stateId: 'SUB_PROCESSES_PENDING' },
      numSubProcesses: 3,
      numCompletedSubProcesses: 0,
    });

    starter.bind(batchService); // now the queued launches run, including the original splitter message
    await starter.idle();
    const done = (await manager.getProcess(book.id, { tenant: 'r' })).mutatedEntity;
    expect(done).toMatchObject({
      state: { stateId: 'PROCESSED' },
      numSubProcesses: 3,
      numCompletedSubProcesses: 3,
      output: { title: 'R', chapters: 3, words: 6 },
    });
    expect(await manager.getProcessTree(book.id, { tenant: 'r' })).toHaveLength(4);
  });
});
