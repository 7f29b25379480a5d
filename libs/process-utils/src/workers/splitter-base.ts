/**
 * Base class of SPLITTER workers: `split` returns the children to create, either as one list or
 * as an async iterable of batches. Every batch but the last is reported as
 * `splitPartiallyDone`, the last as `splitDone` (an empty split is `splitDone` with no children,
 * which moves on to aggregation). Lists longer than {@link SplitterBase.batchSize} are cut into
 * batches. A throw is reported as `splitDoneWithErrors` (after a partial split the parent then
 * waits for the children it already has and ends PROCESSED_WITH_ERRORS).
 *
 * @example
 * class SplitBook extends SplitterBase<{ chapters: string[] }, { text: string }> {
 *   readonly processType = 'count-book';
 *   split(input: { chapters: string[] }) {
 *     return input.chapters.map((text) => ({ processType: 'count-words', args: { text } }));
 *   }
 * }
 * // or in batches:
 * async *split(input: Input) { for await (const page of pages(input)) yield page.map(toChild); }
 */
import { WorkerType } from '@fw/process-api';
import { WorkerBase } from './worker-base';
import type { WorkerContext } from './worker-context';

/** One child to create. */
export interface ChildSpec<TChildArgs> {
  /** Definition name of the child. */
  processType: string;
  /** The child's input. */
  args: TChildArgs;
  /** Overrides the child definition's `leaf`. */
  leaf?: boolean;
  /** UUID of the child; default: derived from the parent id and the child's position (see `deterministicChildIds`). */
  childId?: string;
}

export type SplitResult<TChildArgs> =
  readonly ChildSpec<TChildArgs>[] | AsyncIterable<readonly ChildSpec<TChildArgs>[]>;

export abstract class SplitterBase<TInput, TChildArgs> extends WorkerBase<TInput> {
  readonly workerType = WorkerType.SPLITTER;
  /** Largest number of children sent in one event (default 1000). */
  readonly batchSize: number = 1000;
  /**
   * Give children without a `childId` one derived from the parent id and their position
   * (default true), so a splitter that is delivered twice creates and counts nothing twice.
   */
  readonly deterministicChildIds: boolean = true;

  abstract split(input: TInput, ctx: WorkerContext): SplitResult<TChildArgs> | Promise<SplitResult<TChildArgs>>;
}
