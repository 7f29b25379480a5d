/**
 * Turns a splitter's result into the batches sent as `splitPartiallyDone` / `splitDone`, and
 * gives children a deterministic id when they have none.
 */
import type { SubProcessRequest } from '@fw/process-api';
import { WorkerFailureKinds, WorkerPayloadError } from '../errors/worker-failure';
import type { ChildSpec, SplitResult } from '../workers/splitter-base';
import { deterministicChildId } from './child-ids';

function isAsyncIterable<T>(value: unknown): value is AsyncIterable<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** The non-empty batches of a split result, none longer than `batchSize`. */
export async function* splitBatches<T>(
  result: SplitResult<T>,
  batchSize: number,
): AsyncGenerator<readonly ChildSpec<T>[]> {
  const size = Math.max(1, Math.floor(batchSize));
  const chunks = function* (list: readonly ChildSpec<T>[]): Generator<readonly ChildSpec<T>[]> {
    for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size);
  };
  if (Array.isArray(result)) {
    yield* chunks(result as readonly ChildSpec<T>[]);
    return;
  }
  if (!isAsyncIterable<readonly ChildSpec<T>[]>(result)) {
    throw new WorkerPayloadError(
      WorkerFailureKinds.invocationFailure,
      'split() must return a list of children or an async iterable of batches',
    );
  }
  for await (const batch of result) {
    if (!Array.isArray(batch))
      throw new WorkerPayloadError(
        WorkerFailureKinds.invocationFailure,
        'every batch yielded by split() must be a list of children',
      );
    yield* chunks(batch);
  }
}

/** The request sent for the child at `index` (0-based across all batches). */
export function childRequest<T>(
  spec: ChildSpec<T>,
  parentId: string,
  index: number,
  deterministicIds: boolean,
): SubProcessRequest {
  if (typeof spec !== 'object' || spec === null || typeof spec.processType !== 'string' || spec.processType === '') {
    throw new WorkerPayloadError(
      WorkerFailureKinds.invocationFailure,
      `child ${index} returned by split() has no processType`,
      `subProcesses[${index}].processType`,
    );
  }
  const childId = spec.childId ?? (deterministicIds ? deterministicChildId(parentId, index) : undefined);
  return {
    processType: spec.processType,
    args: spec.args === undefined ? null : spec.args,
    ...(spec.leaf === undefined ? {} : { leaf: spec.leaf }),
    ...(childId === undefined ? {} : { childId }),
  };
}
