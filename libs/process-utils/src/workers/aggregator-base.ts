/**
 * Base class of AGGREGATOR workers: `aggregate` receives the process input and the results of
 * its direct children (in creation order) and returns the output, reported as
 * `aggregationDone { output }`; a throw is reported as `aggregationDoneWithErrors`.
 * If a child failed, the process still ends PROCESSED_WITH_ERRORS after `aggregationDone`
 * (the child's error is recorded on it), so aggregators need not re-raise child failures.
 *
 * @example
 * class SumWords extends AggregatorBase<unknown, { words: number }, { total: number }> {
 *   readonly processType = 'count-book';
 *   aggregate(_input: unknown, children: ChildResult<{ words: number }>[]) {
 *     return { total: children.reduce((sum, c) => sum + (c.output?.words ?? 0), 0) };
 *   }
 * }
 */
import { WorkerType } from '@fw/process-api';
import type { PayloadSchema } from '../payload/payload-schema';
import { WorkerBase } from './worker-base';
import type { WorkerContext } from './worker-context';

/** The result of one child as an aggregator sees it. `output` is null for failed children. */
export interface ChildResult<TChildOutput> {
  processId: string;
  processType: string;
  /** PROCESSED or PROCESSED_WITH_ERRORS. */
  stateId: string;
  successful: boolean;
  output: TChildOutput | null;
}

export abstract class AggregatorBase<TInput, TChildOutput, TOutput> extends WorkerBase<TInput> {
  readonly workerType = WorkerType.AGGREGATOR;
  /** Optional schema checked against the output of every successful child. */
  readonly childOutputSchema?: PayloadSchema<TChildOutput>;

  /**
   * Validate hook for one successful child's output (default: `childOutputSchema`, else unchecked).
   * `path` names the child (`subProcessResults[3].output`).
   */
  parseChildOutput(raw: unknown, path: string): TChildOutput {
    return this.childOutputSchema ? this.childOutputSchema.parse(raw, path) : (raw as TChildOutput);
  }

  abstract aggregate(
    input: TInput,
    children: ChildResult<TChildOutput>[],
    ctx: WorkerContext,
  ): TOutput | Promise<TOutput>;
}
