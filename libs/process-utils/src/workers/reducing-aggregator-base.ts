/**
 * Base class of AGGREGATOR workers that fold their children's results one at a time instead of
 * receiving them all in one list: `initial` starts the accumulator from the process input,
 * `reduce` takes each child in creation order, `finish` turns the accumulator into the output. The
 * results of a split of any size then pass through in pages (see `ChildResultsLoader`), and the
 * aggregator's memory does not grow with the number of children.
 *
 * @example
 * class CountWords extends ReducingAggregatorBase<unknown, { words: number }, number, { total: number }> {
 *   readonly processType = 'count-book';
 *   initial() { return 0; }
 *   reduce(total: number, child: ChildResult<{ words: number }>) { return total + (child.output?.words ?? 0); }
 *   finish(total: number) { return { total }; }
 * }
 */
import { AggregatorBase, type ChildResult } from './aggregator-base';
import type { WorkerContext } from './worker-context';

export abstract class ReducingAggregatorBase<TInput, TChildOutput, TAccumulator, TOutput> extends AggregatorBase<
  TInput,
  TChildOutput,
  TOutput
> {
  /** The accumulator before the first child. */
  abstract initial(input: TInput, ctx: WorkerContext): TAccumulator;
  /** The accumulator after one more child (children come in creation order). */
  abstract reduce(accumulator: TAccumulator, child: ChildResult<TChildOutput>, ctx: WorkerContext): TAccumulator;
  /** The output from the accumulator after the last child. */
  abstract finish(accumulator: TAccumulator, input: TInput, ctx: WorkerContext): TOutput | Promise<TOutput>;

  /** The same fold over a list (what a caller holding every result gets). */
  aggregate(input: TInput, children: ChildResult<TChildOutput>[], ctx: WorkerContext): TOutput | Promise<TOutput> {
    let accumulator = this.initial(input, ctx);
    for (const child of children) accumulator = this.reduce(accumulator, child, ctx);
    return this.finish(accumulator, input, ctx);
  }
}
