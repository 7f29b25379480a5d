import { isConfigError } from '@fw/core';
import {
  makeDatabaseProcessConfigurator,
  makeJsonProcessConfigurator,
  makeProcessConfigurator,
  makeProcessManager,
  processDb,
} from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { makeRecordingStarter } from './support';

function tempFile(content: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-defs-'));
  const file = path.join(dir, 'defs.json');
  writeFileSync(file, content);
  return file;
}

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isConfigError(e)) return e.message;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('json process configurator', () => {
  const file = tempFile(
    JSON.stringify([
      { processType: 'b', leaf: true, predecessorProcessType: 'a', config: { k: 'v' } },
      { processType: 'a', leaf: false },
      { processType: 'c', leaf: true, predecessorProcessType: 'a', predecessorArgs: 'INPUT' },
    ]),
  );

  it('reads a file, defaults predecessorArgs to BOTH and lists sorted copies', async () => {
    const configurator = makeJsonProcessConfigurator({ file });
    expect((await configurator.list()).map((d) => d.processType)).toEqual(['a', 'b', 'c']);
    expect(await configurator.findByName('b')).toMatchObject({
      leaf: true,
      predecessorArgs: 'BOTH',
      config: { k: 'v' },
    });
    expect(await configurator.findByName('zz')).toBeUndefined();
    expect((await configurator.findSuccessors('a')).map((d) => d.processType)).toEqual(['b', 'c']);
    const copy = await configurator.findByName('b');
    copy!.config!.k = 'changed';
    expect((await configurator.findByName('b'))?.config).toEqual({ k: 'v' });
  });

  it('accepts { definitions: [...] } and arrays given in code', async () => {
    const wrapped = makeJsonProcessConfigurator({
      file: tempFile(JSON.stringify({ definitions: [{ processType: 'x', leaf: true }] })),
    });
    expect((await wrapped.list()).map((d) => d.processType)).toEqual(['x']);
    const inline = makeProcessConfigurator({ definitions: [{ processType: 'y', leaf: false }] });
    expect(await inline.findByName('y')).toMatchObject({ leaf: false, config: {} });
  });

  it('fails fast with a message naming the problem', () => {
    expect(configError(() => makeJsonProcessConfigurator({ file: '/nonexistent/defs.json' }))).toContain(
      '/nonexistent/defs.json',
    );
    expect(configError(() => makeJsonProcessConfigurator({ file: tempFile('{ nope') }))).toContain('not valid JSON');
    expect(configError(() => makeJsonProcessConfigurator({ definitions: [{ processType: 'a' }] }))).toContain("'leaf'");
    expect(
      configError(() =>
        makeJsonProcessConfigurator({ definitions: [{ processType: 'a', leaf: true, predecessorArgs: 'ALL' }] }),
      ),
    ).toContain('predecessorArgs');
    expect(
      configError(() =>
        makeJsonProcessConfigurator({ definitions: [{ processType: 'a', leaf: true, config: { n: 1 } }] }),
      ),
    ).toContain("config 'n'");
    expect(
      configError(() =>
        makeJsonProcessConfigurator({
          definitions: [
            { processType: 'a', leaf: true },
            { processType: 'a', leaf: false },
          ],
        }),
      ),
    ).toContain('twice');
    for (const processType of ['a\u001fb', 'tab\tbed', 'line\nfeed', 'del\u007f'])
      expect(configError(() => makeJsonProcessConfigurator({ definitions: [{ processType, leaf: true }] }))).toContain(
        'must not hold control characters',
      );
    expect(configError(() => makeProcessConfigurator({ source: 'yaml' }))).toContain('json');
    expect(configError(() => makeProcessConfigurator({ source: 'database' }))).toContain('database');
  });
});

describeEachDatabase('database process configurator', (getDb) => {
  const insert = (processType: string, definition: object | string) =>
    processDb(getDb().database)
      .insertInto('process_definition')
      .values({
        process_type: processType,
        definition: typeof definition === 'string' ? definition : JSON.stringify(definition),
      })
      .execute();

  it('loads once, serves from the cache and reloads after invalidate()', async () => {
    const db = processDb(getDb().database);
    const configurator = makeDatabaseProcessConfigurator({ db });
    await insert('dbJob', { processType: 'dbJob', leaf: true, config: { a: '1' } });
    expect(await configurator.findByName('dbJob')).toMatchObject({ leaf: true, config: { a: '1' } });
    expect(configurator.loadCount).toBe(1);

    await db
      .updateTable('process_definition')
      .set({ definition: JSON.stringify({ processType: 'dbJob', leaf: true, config: { a: '2' } }) })
      .where('process_type', '=', 'dbJob')
      .execute();
    await insert('dbNext', { processType: 'dbNext', leaf: true, predecessorProcessType: 'dbJob' });
    expect((await configurator.findByName('dbJob'))?.config).toEqual({ a: '1' });
    expect(await configurator.findByName('dbNext')).toBeUndefined();
    expect(configurator.loadCount).toBe(1);

    configurator.invalidate();
    expect((await configurator.findByName('dbJob'))?.config).toEqual({ a: '2' });
    expect((await configurator.findSuccessors('dbJob')).map((d) => d.processType)).toEqual(['dbNext']);
    expect(configurator.loadCount).toBe(2);
  });

  it('drives the manager, inside its transactions, on the same database', async () => {
    const db = processDb(getDb().database);
    const starter = makeRecordingStarter();
    const configurator = makeProcessConfigurator({ source: 'database', db });
    const manager = makeProcessManager({ db, configurator, workerStarter: starter });
    const { mutatedEntity } = await manager.createProcess({ processDefName: 'dbJob' }, { tenant: null });
    expect(starter.launchesOf(mutatedEntity.id)[0]?.config).toEqual({ a: '2' });
    await manager.sendEvent(mutatedEntity.id, 'doneSuccessfully', { output: 1 }, { tenant: null });
    const next = await db
      .selectFrom('fw_process')
      .select(['process_type', 'input'])
      .where('predecessor_id', '=', mutatedEntity.id)
      .execute();
    expect(next).toEqual([{ process_type: 'dbNext', input: { input: null, output: 1 } }]);
  });

  it('reports a broken row (500 P012) and retries on the next call', async () => {
    const configurator = makeDatabaseProcessConfigurator({ db: processDb(getDb().database) });
    await insert('broken', '{ not json');
    await expect(configurator.list()).rejects.toMatchObject({ code: 500, subErrorCode: 'P012' });
    await processDb(getDb().database).deleteFrom('process_definition').where('process_type', '=', 'broken').execute();
    expect((await configurator.list()).map((d) => d.processType)).toEqual(['dbJob', 'dbNext']);
  });
});
