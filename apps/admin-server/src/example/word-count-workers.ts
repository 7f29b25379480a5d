/**
 * The dev profile's example: count the words of a text. The splitter cuts the text into chunks of
 * `chunkWords` words (definition config, default 20), one executor per chunk counts its words, the
 * aggregator merges the counts, and the successor `word-count-report` reports the top words.
 *
 * | processType | leaf | workers |
 * |---|---|---|
 * | word-count | no | SplitText (SPLITTER), MergeCounts (AGGREGATOR) |
 * | word-count-chunk | yes | CountChunk (EXECUTOR) |
 * | word-count-report | yes, successor of word-count (OUTPUT) | TopWords (EXECUTOR) |
 *
 * @example
 * const batchService = makeBatchService({ workers: wordCountWorkers(), sink: makeManagerEventSink(manager) });
 */
import type { ProcessDef } from '@fw/process-api';
import {
  AggregatorBase,
  ExecutorBase,
  shape,
  SplitterBase,
  type ChildResult,
  type ChildSpec,
  type PayloadType,
  type Worker,
  type WorkerContext,
} from '@fw/process-utils';

export const WORD_COUNT = 'word-count';
export const WORD_COUNT_CHUNK = 'word-count-chunk';
export const WORD_COUNT_REPORT = 'word-count-report';

/** The example definitions seeded into `process_definition` by the dev profile. */
export const WORD_COUNT_DEFINITIONS: readonly ProcessDef[] = [
  { processType: WORD_COUNT, leaf: false, config: { chunkWords: '20' } },
  { processType: WORD_COUNT_CHUNK, leaf: true, parentProcessType: WORD_COUNT },
  {
    processType: WORD_COUNT_REPORT,
    leaf: true,
    predecessorProcessType: WORD_COUNT,
    predecessorArgs: 'OUTPUT',
    config: { top: '5' },
  },
];

/** A text the curl of the startup banner sends. */
export const EXAMPLE_TEXT =
  'the quick brown fox jumps over the lazy dog the dog sleeps and the fox runs far away into the quiet woods where the old owl watches the fox and the dog';

const textInput = shape({ text: 'string' });
type TextInput = PayloadType<typeof textInput>;

/** Counts per word. */
export interface ChunkCount {
  words: number;
  counts: Record<string, number>;
}

export interface WordCountOutput {
  totalWords: number;
  distinctWords: number;
  chunks: number;
  counts: Record<string, number>;
}

export interface WordCountReport {
  totalWords: number;
  distinctWords: number;
  topWords: Array<{ word: string; count: number }>;
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean);
}

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export class SplitText extends SplitterBase<TextInput, TextInput> {
  readonly processType = WORD_COUNT;
  override readonly inputSchema = textInput;
  split(input: TextInput, ctx: WorkerContext): ChildSpec<TextInput>[] {
    const size = positiveInt(ctx.config.chunkWords, 20);
    const words = input.text.split(/\s+/).filter(Boolean);
    const children: ChildSpec<TextInput>[] = [];
    for (let i = 0; i < words.length; i += size)
      children.push({ processType: WORD_COUNT_CHUNK, args: { text: words.slice(i, i + size).join(' ') } });
    return children;
  }
}

export class CountChunk extends ExecutorBase<TextInput, ChunkCount> {
  readonly processType = WORD_COUNT_CHUNK;
  override readonly inputSchema = textInput;
  execute(input: TextInput): ChunkCount {
    const counts: Record<string, number> = {};
    const words = wordsOf(input.text);
    for (const w of words) counts[w] = (counts[w] ?? 0) + 1;
    return { words: words.length, counts };
  }
}

export class MergeCounts extends AggregatorBase<TextInput, ChunkCount, WordCountOutput> {
  readonly processType = WORD_COUNT;
  override readonly inputSchema = textInput;
  aggregate(_input: TextInput, chunks: ChildResult<ChunkCount>[]): WordCountOutput {
    const counts: Record<string, number> = {};
    let totalWords = 0;
    for (const chunk of chunks) {
      if (!chunk.output) continue;
      totalWords += chunk.output.words;
      for (const [w, n] of Object.entries(chunk.output.counts)) counts[w] = (counts[w] ?? 0) + n;
    }
    return { totalWords, distinctWords: Object.keys(counts).length, chunks: chunks.length, counts };
  }
}

/** The report's input: the word count's output (a bad one is MALFORMED_PAYLOAD / INCOMPATIBLE_FIELD_TYPE, not a TypeError). */
const reportInput = shape({ totalWords: 'integer', distinctWords: 'integer', chunks: 'integer?', counts: 'object' });
type ReportInput = PayloadType<typeof reportInput>;

export class TopWords extends ExecutorBase<ReportInput, WordCountReport> {
  readonly processType = WORD_COUNT_REPORT;
  override readonly inputSchema = reportInput;
  execute(input: ReportInput, ctx: WorkerContext): WordCountReport {
    const top = positiveInt(ctx.config.top, 5);
    const topWords = Object.entries(input.counts)
      .map(([word, count]) => ({ word, count: Number(count) }))
      .sort((a, b) => b.count - a.count || a.word.localeCompare(b.word))
      .slice(0, top);
    return { totalWords: input.totalWords, distinctWords: input.distinctWords, topWords };
  }
}

/** The example's workers, for a BatchService. */
export function wordCountWorkers(): Worker[] {
  return [new SplitText(), new CountChunk(), new MergeCounts(), new TopWords()];
}
