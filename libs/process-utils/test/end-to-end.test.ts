import type { Process } from '@fw/process-api';
import { describeEachDatabase } from '@fw/test-support';
import { makeHarness, successorsOf, type Harness } from './harness';
import { seenTenants, type LibraryOutput } from './workers';

const LIBRARY = {
  books: [
    { title: 'A', chapters: ['one two three', 'four five', 'six'] },
    { title: 'B', chapters: ['seven eight', 'nine ten eleven twelve'] },
    { title: 'C', chapters: [] },
  ],
};

function byType(tree: Process[], type: string): Process[] {
  return tree.filter((p) => p.processType === type);
}

describeEachDatabase('process-utils end to end on the in-VM starter', (getDb) => {
  let h: Harness;
  beforeAll(() => {
    h = makeHarness(getDb());
  });

  it('runs a three-level tree to PROCESSED with right counters, aggregated outputs and a successor', async () => {
    const root = await h.run('library', LIBRARY);
    expect(root.state.stateId).toBe('PROCESSED');
    expect(root.errors).toEqual([]);
    expect(root).toMatchObject({
      splitCompleted: true,
      numSubProcesses: 3,
      numCompletedSubProcesses: 3,
      completedPercent: 100,
    });
    const output = root.output as LibraryOutput;
    expect(output.totalWords).toBe(12);
    expect(output.books).toEqual([
      { title: 'A', chapters: 3, words: 6 },
      { title: 'B', chapters: 2, words: 6 },
      { title: 'C', chapters: 0, words: 0 },
    ]);

    const tree = await h.tree(root.id);
    const books = byType(tree, 'book');
    const chapters = byType(tree, 'chapter');
    expect(books).toHaveLength(3);
    expect(chapters).toHaveLength(5);
    expect(tree.every((p) => p.state.stateId === 'PROCESSED')).toBe(true);
    const bookA = books.find((b) => (b.input as { title: string }).title === 'A');
    expect(bookA).toMatchObject({ splitCompleted: true, numSubProcesses: 3, numCompletedSubProcesses: 3 });
    expect(chapters.map((c) => c.output)).toEqual(
      expect.arrayContaining([{ words: 3 }, { words: 2 }, { words: 1 }, { words: 4 }]),
    );

    const successors = await successorsOf(getDb(), root.id);
    expect(successors).toHaveLength(1);
    const report = await h.get(successors[0]!.id);
    expect(report).toMatchObject({ processType: 'report', predecessorId: root.id, state: { stateId: 'PROCESSED' } });
    expect(report.output).toEqual({ summary: '3 books, 12 words' });
    expect(h.starter.stats()).toMatchObject({ queued: 0, inFlight: 0, failed: 0 });
  });

  it('propagates the tenant into author code (currentTenantId) and onto children and successors', async () => {
    seenTenants.length = 0;
    const root = await h.run('library', { books: [{ title: 'T', chapters: ['a b', 'c'] }] }, 'acme');
    expect(root.state.stateId).toBe('PROCESSED');
    const tree = await h.tree(root.id);
    expect(tree.map((p) => p.tenant)).toEqual(tree.map(() => 'acme'));
    const [successor] = await successorsOf(getDb(), root.id);
    expect((await h.get(successor!.id)).tenant).toBe('acme');
    const steps = seenTenants.map((s) => s.step);
    expect(steps).toEqual(
      expect.arrayContaining([
        'library/SPLITTER',
        'book/SPLITTER',
        'chapter/EXECUTOR',
        'book/AGGREGATOR',
        'library/AGGREGATOR',
        'report/EXECUTOR',
      ]),
    );
    expect(seenTenants.every((s) => s.tenant === 'acme' && s.ctxTenant === 'acme')).toBe(true);
    // scoped delivery: the process is invisible to another tenant
    await expect(h.manager.getProcess(root.id, { tenant: 'other' })).rejects.toMatchObject({ code: 404 });
  });

  it('a malformed payload ends the step in PROCESSED_WITH_ERRORS with the error recorded', async () => {
    const p = await h.run('chapter', 'just text');
    expect(p.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(p.errors).toHaveLength(1);
    expect(p.errors[0]).toMatchObject({
      processId: p.id,
      errors: ["MALFORMED_PAYLOAD: 'input' must be a JSON object, got a string"],
      stackTrace: null,
    });
  });

  it('an incompatible known-field type is recorded as such', async () => {
    const p = await h.run('chapter', { text: 42 });
    expect(p.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(p.errors[0]?.errors).toEqual(["INCOMPATIBLE_FIELD_TYPE: 'input.text' must be a string, got a number"]);
  });

  it('unknown JSON properties in a payload are tolerated', async () => {
    const p = await h.run('chapter', { text: 'a b c', color: 'blue', nested: { x: 1 } });
    expect(p.state.stateId).toBe('PROCESSED');
    expect(p.output).toEqual({ words: 3 });
  });

  it('a missing payload type (no worker registered) is recorded', async () => {
    const p = await h.run('orphan', {});
    expect(p.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(p.errors[0]?.errors).toEqual([
      "MISSING_PAYLOAD_TYPE: no EXECUTOR worker is registered for process type 'orphan'",
    ]);
  });

  it('an invocation failure records the exception message and the author stack', async () => {
    const p = await h.run('chapter', { text: 'it went boom' });
    expect(p.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(p.errors[0]).toMatchObject({
      errors: ['INVOCATION_FAILURE: chapter exploded: it went boom'],
      exceptionMessage: 'TypeError: chapter exploded: it went boom',
    });
    expect(p.errors[0]?.stackTrace).toContain('CountWords.execute');
  });

  it('a failing leaf makes its parents see the child error and end PROCESSED_WITH_ERRORS after aggregation', async () => {
    const root = await h.run('library', {
      books: [
        { title: 'ok', chapters: ['a'] },
        { title: 'bad', chapters: ['x y', 'boom'] },
      ],
    });
    expect(root.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    const tree = await h.tree(root.id);
    const bad = byType(tree, 'book').find((b) => (b.input as { title: string }).title === 'bad')!;
    const failedChapter = byType(tree, 'chapter').find((c) => c.state.stateId === 'PROCESSED_WITH_ERRORS')!;
    expect(bad.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(bad.errors.map((e) => e.processId)).toEqual([failedChapter.id]);
    expect(bad.output).toEqual({ title: 'bad', chapters: 2, words: 2 });
    expect(root.errors.map((e) => e.processId)).toEqual([bad.id]);
    expect(root.errors[0]?.errors).toEqual(['INVOCATION_FAILURE: chapter exploded: boom']);
    expect(root).toMatchObject({ numSubProcesses: 2, numCompletedSubProcesses: 2 });
  });

  it('a splitter payload failure ends in PROCESSED_WITH_ERRORS without children', async () => {
    const root = await h.run('library', { books: 'none' });
    expect(root.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(root.errors[0]?.errors).toEqual(["INCOMPATIBLE_FIELD_TYPE: 'input.books' must be an array, got a string"]);
    expect(root.numSubProcesses).toBe(0);
  });

  it('an aggregator failure ends in PROCESSED_WITH_ERRORS through aggregationDoneWithErrors', async () => {
    const root = await h.run('book', { title: 'Z', chapters: ['a', 'b c'], failAggregation: true });
    expect(root.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(root.errors[0]).toMatchObject({
      processId: root.id,
      errors: ['INVOCATION_FAILURE: cannot sum Z'],
      exceptionMessage: 'Error: cannot sum Z',
    });
    expect(root.numCompletedSubProcesses).toBe(2);
    const outcome = h.outcomes.find((o) => o.processId === root.id && o.workerType === 'AGGREGATOR');
    expect(outcome).toMatchObject({ status: 'failed', events: ['aggregationDoneWithErrors'] });
  });

  it('a result refused by the service (child of an unknown type) is reported as EVENT_REJECTED', async () => {
    const root = await h.run('library', { books: [{ title: 'A', chapters: ['a'] }], badChild: true });
    expect(root.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(root.errors[0]?.errors[0]).toMatch(
      /^EVENT_REJECTED: the process service refused splitDone: No process definition named 'no-such-type'/,
    );
    expect(root.numSubProcesses).toBe(0);
  });

  it('a redelivered worker message is answered as stale and changes nothing', async () => {
    const p = await h.run('chapter', { text: 'a b' });
    const before = await h.get(p.id);
    const outcome = await h.batchService.run({
      processId: p.id,
      processType: 'chapter',
      workerType: 'EXECUTOR',
      tenant: null,
      triggerId: null,
      parentId: null,
      input: { text: 'a b' },
      config: {},
    });
    expect(outcome.status).toBe('stale');
    expect(await h.get(p.id)).toEqual(before);
  });
});
