/**
 * An aggregation above the embedded limit: a split of more than a thousand children hands its
 * aggregator a message without the children's results, and the step reads them page by page from
 * the manager (the worker host's sink). A reducing aggregator folds them; a classic one gets them
 * all in one list. Under the limit the results still travel in the message.
 */
import { createLogger } from '@fw/core';
import type { ProcessDef } from '@fw/process-api';
import { makeJsonProcessConfigurator } from '@fw/process-service';
import {
  AggregatorBase,
  ExecutorBase,
  ReducingAggregatorBase,
  SplitterBase,
  type ChildResult,
  type ChildSpec,
} from '@fw/process-utils';
import { describeEachDatabase, waitForTreeFinished } from '@fw/test-support';
import { sql } from 'kysely';
import { makeJdbcWorkerHost } from '../src';

const DEFINITIONS: ProcessDef[] = [
  { processType: 'fold', leaf: false },
  { processType: 'fold-part', leaf: true, parentProcessType: 'fold' },
  { processType: 'listed', leaf: false },
  { processType: 'listed-part', leaf: true, parentProcessType: 'listed' },
];

class SplitInto extends SplitterBase<{ n: number }, { i: number }> {
  constructor(readonly processType: string) {
    super();
  }
  split(input: { n: number }): ChildSpec<{ i: number }>[] {
    return Array.from({ length: input.n }, (_, i) => ({ processType: `${this.processType}-part`, args: { i } }));
  }
}

class Echo extends ExecutorBase<{ i: number }, { i: number }> {
  constructor(readonly processType: string) {
    super();
  }
  execute(input: { i: number }): { i: number } {
    return { i: input.i };
  }
}

/** Sums the children's numbers and checks they come in creation order. */
class FoldSum extends ReducingAggregatorBase<
  unknown,
  { i: number },
  { sum: number; next: number; inOrder: boolean },
  unknown
> {
  readonly processType = 'fold';
  initial() {
    return { sum: 0, next: 0, inOrder: true };
  }
  reduce(acc: { sum: number; next: number; inOrder: boolean }, child: ChildResult<{ i: number }>) {
    const i = child.output?.i ?? -1;
    return { sum: acc.sum + i, next: acc.next + 1, inOrder: acc.inOrder && i === acc.next };
  }
  finish(acc: { sum: number; next: number; inOrder: boolean }) {
    return { sum: acc.sum, children: acc.next, inOrder: acc.inOrder };
  }
}

class ListSum extends AggregatorBase<unknown, { i: number }, unknown> {
  readonly processType = 'listed';
  aggregate(_input: unknown, children: ChildResult<{ i: number }>[]) {
    return { sum: children.reduce((s, c) => s + (c.output?.i ?? 0), 0), children: children.length };
  }
}

const triangle = (n: number) => (n * (n - 1)) / 2;

describeEachDatabase('aggregation of a split above the embedded results limit', (getDb) => {
  async function run(processType: string, n: number) {
    const { database } = getDb();
    const host = makeJdbcWorkerHost({
      database,
      closeDatabase: false,
      configurator: makeJsonProcessConfigurator({ definitions: DEFINITIONS }),
      workers: [
        new SplitInto('fold'),
        new SplitInto('listed'),
        new Echo('fold-part'),
        new Echo('listed-part'),
        new FoldSum(),
        new ListSum(),
      ],
      concurrency: 64,
      runner: { pollIntervalMillis: 20, batchSize: 64 },
      outbox: { pollIntervalMillis: 20 },
      logger: createLogger({ name: 'large-split', level: 'warn' }),
    });
    host.start();
    try {
      const created = await host.manager.createProcess({ processDefName: processType, args: { n } }, { tenant: 't1' });
      const rootId = created.mutatedEntity.id;
      await waitForTreeFinished(database, rootId, 120_000, () => '');
      // The manager's pages, smaller than the default: every child once, in creation order.
      const paged: string[] = [];
      let pages = 0;
      for await (const page of host.manager.childResultPages(rootId, 400)) {
        pages++;
        paged.push(...page.map((r) => r.processId));
      }
      const { rows: children } = await sql<{ id: string }>`
        select id from fw_process where parent_id = ${rootId} order by seq`.execute(database.db);
      expect(paged).toEqual(children.map((c) => c.id));
      expect(pages).toBe(Math.ceil(n / 400));
      // A reader that stops after the first page (the second is being read meanwhile) loses nothing after it.
      for await (const page of host.manager.childResultPages(rootId, 400)) {
        expect(page.map((r) => r.processId)).toEqual(paged.slice(0, Math.min(n, 400)));
        break;
      }
      const again: string[] = [];
      for await (const page of host.manager.childResultPages(rootId, 400)) again.push(...page.map((r) => r.processId));
      expect(again).toEqual(paged);
      const { rows } = await sql<{ state_id: string; output: unknown; embedded: boolean | null }>`
        select p.state_id, p.output,
               (select w.payload ? 'subProcessResults' from fw_process_work_item w
                 where w.process_id = p.id and w.worker_type = 'AGGREGATOR') as embedded
          from fw_process p where p.id = ${rootId}`.execute(database.db);
      return rows[0];
    } finally {
      await host.stop({ drainMillis: 2000 });
    }
  }

  it('folds 1,100 children read page by page: all, in creation order, none in the message', async () => {
    const root = await run('fold', 1100);
    expect(root.state_id).toBe('PROCESSED');
    expect(root.output).toEqual({ sum: triangle(1100), children: 1100, inOrder: true });
    expect(root.embedded).toBe(false);
  }, 180_000);

  it('hands a classic aggregator all 1,050 children in one list, read where it runs', async () => {
    const root = await run('listed', 1050);
    expect(root.state_id).toBe('PROCESSED');
    expect(root.output).toEqual({ sum: triangle(1050), children: 1050 });
    expect(root.embedded).toBe(false);
  }, 180_000);

  it('still carries the results of a small split in the message', async () => {
    const root = await run('fold', 10);
    expect(root.output).toEqual({ sum: triangle(10), children: 10, inOrder: true });
    expect(root.embedded).toBe(true);
  }, 60_000);
});
