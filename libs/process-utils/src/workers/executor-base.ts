/**
 * Base class of EXECUTOR workers (leaf processes): `execute` returns the output, reported as
 * `doneSuccessfully { output }`; a throw is reported as `doneWithErrors`.
 *
 * @example
 * class CountWords extends ExecutorBase<{ text: string }, { words: number }> {
 *   readonly processType = 'count-words';
 *   override readonly inputSchema = shape({ text: 'string' });
 *   execute(input: { text: string }) {
 *     return { words: input.text.split(/\s+/).filter(Boolean).length };
 *   }
 * }
 */
import { WorkerType } from '@fw/process-api';
import { WorkerBase } from './worker-base';
import type { WorkerContext } from './worker-context';

export abstract class ExecutorBase<TInput, TOutput> extends WorkerBase<TInput> {
  readonly workerType = WorkerType.EXECUTOR;

  /** Does the work of one leaf process. `undefined` is reported as output `null`. */
  abstract execute(input: TInput, ctx: WorkerContext): TOutput | Promise<TOutput>;
}
