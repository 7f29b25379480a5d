/**
 * The example workers of the tests: a library of books is split into books, each book into
 * chapters; a chapter counts its words; books and the library sum them; a report follows the
 * library. One small class per step, as a worker author writes them.
 */
import { currentTenantId } from '@fw/core';
import type { ProcessDef } from '@fw/process-api';
import {
  AggregatorBase,
  ExecutorBase,
  listOf,
  shape,
  SplitterBase,
  type ChildResult,
  type ChildSpec,
  type PayloadType,
  type WorkerContext,
} from '@fw/process-utils';

/** Tenants seen by author code, by "<processType>/<workerType>". */
export const seenTenants: Array<{ step: string; tenant: string | undefined; ctxTenant: string | null }> = [];

function see(ctx: WorkerContext): void {
  seenTenants.push({ step: `${ctx.processType}/${ctx.workerType}`, tenant: currentTenantId(), ctxTenant: ctx.tenant });
}

const bookShape = shape({ title: 'string', chapters: 'array', failAggregation: 'boolean?' });
const libraryInput = shape({ books: listOf(bookShape), badChild: 'boolean?' });
type LibraryInput = PayloadType<typeof libraryInput>;
type BookInput = PayloadType<typeof bookShape>;
const chapterInput = shape({ text: 'string' });
type ChapterInput = PayloadType<typeof chapterInput>;
const chapterOutput = shape({ words: 'integer' });
type ChapterOutput = PayloadType<typeof chapterOutput>;
export interface BookOutput {
  title: string;
  words: number;
  chapters: number;
}
export interface LibraryOutput {
  totalWords: number;
  books: BookOutput[];
}

export class SplitLibrary extends SplitterBase<LibraryInput, BookInput> {
  readonly processType = 'library';
  override readonly inputSchema = libraryInput;
  split(input: LibraryInput, ctx: WorkerContext): ChildSpec<BookInput>[] {
    see(ctx);
    const children: ChildSpec<BookInput>[] = input.books.map((book) => ({ processType: 'book', args: book }));
    if (input.badChild) children.push({ processType: 'no-such-type', args: { title: 'x', chapters: [] } });
    return children;
  }
}

export class SumLibrary extends AggregatorBase<LibraryInput, BookOutput, LibraryOutput> {
  readonly processType = 'library';
  aggregate(_input: LibraryInput, books: ChildResult<BookOutput>[], ctx: WorkerContext): LibraryOutput {
    see(ctx);
    const done = books.flatMap((b) => (b.output === null ? [] : [b.output]));
    return { totalWords: done.reduce((sum, b) => sum + b.words, 0), books: done };
  }
}

/** Splits a book in batches of two chapters (an async generator: splitPartiallyDone, then splitDone). */
export class SplitBook extends SplitterBase<BookInput, ChapterInput> {
  readonly processType = 'book';
  override readonly inputSchema = bookShape;
  async *split(input: BookInput, ctx: WorkerContext): AsyncGenerator<ChildSpec<ChapterInput>[]> {
    see(ctx);
    for (let i = 0; i < input.chapters.length; i += 2) {
      yield input.chapters.slice(i, i + 2).map((text) => ({ processType: 'chapter', args: { text: String(text) } }));
    }
  }
}

export class SumBook extends AggregatorBase<BookInput, ChapterOutput, BookOutput> {
  readonly processType = 'book';
  override readonly inputSchema = bookShape;
  override readonly childOutputSchema = chapterOutput;
  aggregate(input: BookInput, chapters: ChildResult<ChapterOutput>[], ctx: WorkerContext): BookOutput {
    see(ctx);
    if (input.failAggregation) throw new Error(`cannot sum ${input.title}`);
    return {
      title: input.title,
      chapters: chapters.length,
      words: chapters.reduce((sum, c) => sum + (c.output?.words ?? 0), 0),
    };
  }
}

export class CountWords extends ExecutorBase<ChapterInput, ChapterOutput> {
  readonly processType = 'chapter';
  override readonly inputSchema = chapterInput;
  async execute(input: ChapterInput, ctx: WorkerContext): Promise<ChapterOutput> {
    see(ctx);
    await Promise.resolve();
    if (input.text.includes('boom')) throw new TypeError(`chapter exploded: ${input.text}`);
    return { words: input.text.split(/\s+/).filter(Boolean).length };
  }
}

export class WriteReport extends ExecutorBase<LibraryOutput, { summary: string }> {
  readonly processType = 'report';
  execute(input: LibraryOutput, ctx: WorkerContext): { summary: string } {
    see(ctx);
    return { summary: `${input.books.length} books, ${input.totalWords} words` };
  }
}

/** Every worker of the example. */
export function exampleWorkers() {
  return [new SplitLibrary(), new SumLibrary(), new SplitBook(), new SumBook(), new CountWords(), new WriteReport()];
}

export const DEFINITIONS: ProcessDef[] = [
  { processType: 'library', leaf: false, config: { owner: 'tests' } },
  { processType: 'book', leaf: false, parentProcessType: 'library' },
  { processType: 'chapter', leaf: true, parentProcessType: 'book' },
  { processType: 'report', leaf: true, predecessorProcessType: 'library', predecessorArgs: 'OUTPUT' },
  { processType: 'orphan', leaf: true },
];
