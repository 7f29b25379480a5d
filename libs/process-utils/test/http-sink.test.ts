import { makeInVmProcessStarter } from '@fw/invm-process-starter';
import type { WorkerDto } from '@fw/process-api';
import { makeProcessDelegate } from '@fw/process-delegate';
import { makeJsonProcessConfigurator, makeProcessManager, processDb, type ProcessManager } from '@fw/process-service';
import { makeProcessRouter } from '@fw/process-service/http';
import { makeBatchService, type ProcessEventSink, type WorkerOutcome } from '@fw/process-utils';
import { describeEachDatabase } from '@fw/test-support';
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { DEFINITIONS, exampleWorkers, seenTenants, type LibraryOutput } from './workers';

describeEachDatabase('workers reporting over HTTP through @fw/process-delegate', (getDb) => {
  let server: Server;
  let manager: ProcessManager;
  const outcomes: WorkerOutcome[] = [];
  const starter = makeInVmProcessStarter({ concurrency: 2 });

  beforeAll(async () => {
    manager = makeProcessManager({
      db: processDb(getDb().database),
      configurator: makeJsonProcessConfigurator({ definitions: DEFINITIONS }),
      workerStarter: starter,
    });
    const app = express();
    app.use(makeProcessRouter({ manager }));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const delegate = makeProcessDelegate({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    const sink: ProcessEventSink = delegate;
    const remote = makeBatchService({ workers: exampleWorkers(), sink, loadChildResults: delegate.childResults });
    // Like a queue transport: the message carries no subProcessResults, so aggregators load them over HTTP.
    starter.bind({
      run: async (worker: WorkerDto) => {
        const { subProcessResults: _dropped, ...message } = worker;
        const outcome = await remote.run(JSON.stringify(message));
        outcomes.push(outcome);
        return outcome;
      },
    });
  });
  afterAll(async () => {
    await starter.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('runs the tree with every event delivered by PATCH under the tenant', async () => {
    seenTenants.length = 0;
    const created = await manager.createProcess(
      { processDefName: 'library', args: { books: [{ title: 'H', chapters: ['a b', 'c d e', 'f'] }] } },
      { tenant: 'remote-t' },
    );
    await starter.idle();
    const root = (await manager.getProcess(created.mutatedEntity.id, { tenant: 'remote-t' })).mutatedEntity;
    expect(root.state.stateId).toBe('PROCESSED');
    expect((root.output as LibraryOutput).totalWords).toBe(6);
    expect(outcomes.every((o) => o.status === 'succeeded')).toBe(true);
    expect(outcomes.flatMap((o) => o.events)).toEqual(
      expect.arrayContaining(['splitDone', 'splitPartiallyDone', 'doneSuccessfully', 'aggregationDone']),
    );
    expect(seenTenants.length).toBeGreaterThan(0);
    expect(seenTenants.every((s) => s.tenant === 'remote-t')).toBe(true);
  });

  it('records a remote worker failure on the process', async () => {
    const created = await manager.createProcess(
      { processDefName: 'chapter', args: { text: 7 } },
      { tenant: 'remote-t' },
    );
    await starter.idle();
    const p = (await manager.getProcess(created.mutatedEntity.id, { tenant: null })).mutatedEntity;
    expect(p.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(p.errors[0]?.errors).toEqual(["INCOMPATIBLE_FIELD_TYPE: 'input.text' must be a string, got a number"]);
  });
});
