import type { SubProcessResult } from '@fw/process-api';
import { processDb, type ProcessDb } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import { randomUUID } from 'node:crypto';
import { childResultPage, childResults, readAheadChildResultPages } from '../src/repository/child-result-reader';

/** A child row as the reader sees it: what it is, how it ended (or EXECUTING: not yet), its output. */
interface ChildRow {
  processType: string;
  stateId: string;
  output: unknown;
}

describeEachDatabase('child results as an aggregator reads them', (getDb) => {
  let db: ProcessDb;
  beforeAll(() => {
    db = processDb(getDb().database);
  });

  const now = new Date();
  async function insertProcess(id: string, parentId: string | null, row: ChildRow): Promise<void> {
    await db
      .insertInto('fw_process')
      .values({
        id,
        process_type: row.processType,
        leaf: parentId !== null,
        parent_id: parentId,
        tenant: 't',
        flow_id: 'f',
        state_id: row.stateId,
        split_completed: false,
        num_sub_processes: 0,
        num_completed_sub_processes: 0,
        completed_percent: 0,
        version: 0,
        output: row.output === undefined ? null : JSON.stringify(row.output),
        created_time: now,
        last_modified_time: now,
        state_entry_time: now,
      })
      .execute();
  }

  /** A parent and its children, inserted one by one (in creation order); returns their ids. */
  async function parentWith(children: ChildRow[]): Promise<{ parentId: string; childIds: string[] }> {
    const parentId = randomUUID();
    await insertProcess(parentId, null, { processType: 'parent', stateId: 'AGGREGATION_PENDING', output: null });
    const childIds: string[] = [];
    for (const child of children) {
      const id = randomUUID();
      await insertProcess(id, parentId, child);
      childIds.push(id);
    }
    return { parentId, childIds };
  }

  /** What the reader should give for `children`: the finished ones, in creation order. */
  const expectedResults = (children: ChildRow[], ids: string[]): SubProcessResult[] =>
    children.flatMap((c, i) =>
      c.stateId === 'PROCESSED' || c.stateId === 'PROCESSED_WITH_ERRORS'
        ? [
            {
              processId: ids[i],
              processType: c.processType,
              stateId: c.stateId,
              successful: c.stateId === 'PROCESSED',
              output: c.output === undefined ? null : c.output,
            },
          ]
        : [],
    );

  async function pagesOf(parentId: string, pageSize: number): Promise<SubProcessResult[][]> {
    const pages: SubProcessResult[][] = [];
    for await (const page of readAheadChildResultPages(db, parentId, pageSize)) pages.push(page);
    return pages;
  }

  it('gives back every output and type as written: JSON of every kind, separators and quotes inside', async () => {
    const outputs: unknown[] = [
      { words: 3, text: 'a, "b"\n\tc \\ d', nested: [1, { x: null }] },
      'plain, with a comma',
      '',
      42.5,
      -0.001,
      true,
      false,
      null,
      [],
      {},
      ['x', ',', ']', '[', '"'],
      'ünïcödé ✓ 𝄞',
    ];
    const types = ['chunk', 'with, comma', 'with "quotes"', 'with\\backslash', 'ünïcödé 𝄞', '[', ']'];
    const children = outputs.map((output, i) => ({
      processType: types[i % types.length],
      stateId: 'PROCESSED',
      output,
    }));
    children.push({ processType: 'chunk', stateId: 'PROCESSED_WITH_ERRORS', output: undefined });
    const { parentId, childIds } = await parentWith(children);
    const expected = expectedResults(children, childIds);
    expect((await pagesOf(parentId, 5000)).flat()).toEqual(expected);
    expect((await pagesOf(parentId, 2)).flat()).toEqual(expected);
    expect(await childResults(db, parentId)).toEqual(expected);
  });

  it('pages hold at most the page size, finished children only, each once, in creation order however they finished', async () => {
    const states = ['PROCESSED', 'EXECUTING', 'PROCESSED_WITH_ERRORS', 'PROCESSED', 'NEW', 'PROCESSED', 'PROCESSED'];
    const children = Array.from({ length: 103 }, (_, i) => ({
      processType: 'chunk',
      stateId: states[(i * 5) % states.length],
      output: { i },
    }));
    const { parentId, childIds } = await parentWith(children);
    const expected = expectedResults(children, childIds);
    for (const pageSize of [1, 4, 5, 16, 17, 102, 103, 1000]) {
      const pages = await pagesOf(parentId, pageSize);
      expect(pages.flat()).toEqual(expected);
      expect(pages.every((p) => p.length > 0 && p.length <= pageSize)).toBe(true);
    }
  });

  it("reads only the parent's own children when other processes were created between them", async () => {
    const first = randomUUID();
    const second = randomUUID();
    await insertProcess(first, null, { processType: 'parent', stateId: 'AGGREGATION_PENDING', output: null });
    await insertProcess(second, null, { processType: 'parent', stateId: 'AGGREGATION_PENDING', output: null });
    const ids: Record<string, string[]> = { [first]: [], [second]: [] };
    for (let i = 0; i < 40; i++) {
      const parentId = i % 3 === 0 ? second : first;
      const id = randomUUID();
      await insertProcess(id, parentId, { processType: 'chunk', stateId: 'PROCESSED', output: i });
      ids[parentId].push(id);
    }
    for (const parentId of [first, second]) {
      const pages = await pagesOf(parentId, 3);
      expect(pages.flat().map((r) => r.processId)).toEqual(ids[parentId]);
      expect(pages.every((p) => p.length <= 3)).toBe(true);
    }
  });

  it('reads children that are far apart, then close together, in pages of at most the page size', async () => {
    const sparse = randomUUID();
    const other = randomUUID();
    await insertProcess(sparse, null, { processType: 'parent', stateId: 'AGGREGATION_PENDING', output: null });
    await insertProcess(other, null, { processType: 'parent', stateId: 'AGGREGATION_PENDING', output: null });
    const own: string[] = [];
    const child = async (parentId: string, i: number) => {
      const id = randomUUID();
      await insertProcess(id, parentId, { processType: 'chunk', stateId: 'PROCESSED', output: i });
      if (parentId === sparse) own.push(id);
    };
    // Six of the parent's children 40 apart (the ranges widen), then 45 in a row (ranges wide
    // enough for many pages must be read a page at a time).
    for (let i = 0; i < 6; i++) {
      await child(sparse, i);
      for (let j = 0; j < 39; j++) await child(other, j);
    }
    for (let i = 6; i < 51; i++) await child(sparse, i);
    const pages = await pagesOf(sparse, 4);
    expect(pages.flat().map((r) => r.processId)).toEqual(own);
    expect(pages.every((p) => p.length > 0 && p.length <= 4)).toBe(true);
    expect(pages.flat().map((r) => r.output)).toEqual(Array.from({ length: 51 }, (_, i) => i));
  });

  it('reads nothing for a parent without finished children, or without children', async () => {
    const { parentId } = await parentWith([{ processType: 'chunk', stateId: 'EXECUTING', output: null }]);
    expect(await pagesOf(parentId, 10)).toEqual([]);
    expect(await pagesOf(randomUUID(), 10)).toEqual([]);
    expect(await childResults(db, parentId)).toEqual([]);
    expect(await childResultPage(db, parentId, 10)).toEqual({ results: [], complete: true });
  });

  it('says whether more follow the first page', async () => {
    const children = Array.from({ length: 4 }, (_, i) => ({ processType: 'chunk', stateId: 'PROCESSED', output: i }));
    const { parentId, childIds } = await parentWith(children);
    const full = await childResultPage(db, parentId, 4);
    expect(full.results.map((r) => r.processId)).toEqual(childIds);
    expect(full.complete).toBe(false);
    const more = await childResultPage(db, parentId, 5);
    expect(more.results).toHaveLength(4);
    expect(more.complete).toBe(true);
  });

  it('a caller that stops after the first page leaves every connection to the pool', async () => {
    const children = Array.from({ length: 60 }, (_, i) => ({ processType: 'chunk', stateId: 'PROCESSED', output: i }));
    const { parentId } = await parentWith(children);
    for (let round = 0; round < 20; round++) {
      for await (const page of readAheadChildResultPages(db, parentId, 2)) {
        expect(page).toHaveLength(2);
        break;
      }
    }
    expect((await pagesOf(parentId, 7)).flat()).toHaveLength(60);
  });

  it('refuses a page whose types cannot be told apart (a type written by hand with U+001F), saying why', async () => {
    const { parentId } = await parentWith([
      { processType: 'chunk', stateId: 'PROCESSED', output: 1 },
      { processType: 'bad\u001ftype', stateId: 'PROCESSED', output: 2 },
    ]);
    await expect(pagesOf(parentId, 10)).rejects.toThrow('U+001F');
  });
});
