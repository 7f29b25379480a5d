export {
  WorkerFailureKinds,
  WorkerPayloadError,
  isWorkerPayloadError,
  NonRetryableError,
  isNonRetryableError,
  WorkerErrorCodes,
  failureOf,
  errorPayloadOf,
} from './errors/worker-failure';
export type { WorkerFailureKind, WorkerFailure } from './errors/worker-failure';
export { shape, listOf, optional, requireObject } from './payload/payload-schema';
export type {
  PayloadSchema,
  PayloadType,
  FieldKind,
  FieldSpec,
  ShapeType,
  OptionalSchema,
} from './payload/payload-schema';
export type { ProcessEventSink, EventDelivery, ChildResultsLoader, ChildResultPages } from './ports/process-event-sink';
export { makeManagerEventSink } from './sinks/manager-event-sink';
export type { ProcessEventReceiver } from './sinks/manager-event-sink';
export { makeBatchingEventSink } from './sinks/batching-event-sink';
export type { BatchProcessEventReceiver, BatchingEventSinkOptions } from './sinks/batching-event-sink';
export type { WorkerContext } from './workers/worker-context';
export { WorkerBase } from './workers/worker-base';
export { SplitterBase } from './workers/splitter-base';
export type { ChildSpec, SplitResult } from './workers/splitter-base';
export { ExecutorBase } from './workers/executor-base';
export { AggregatorBase } from './workers/aggregator-base';
export type { ChildResult } from './workers/aggregator-base';
export { ReducingAggregatorBase } from './workers/reducing-aggregator-base';
export { makeBatchService } from './batch/batch-service';
export type { BatchService, BatchServiceOptions, StepAttempt, StepRequest, Worker } from './batch/batch-service';
export type { WorkerOutcome, WorkerOutcomeStatus } from './batch/worker-outcome';
export { readWorkerMessage } from './batch/worker-message';
export type { ReadMessage } from './batch/worker-message';
export { deterministicChildId } from './batch/child-ids';
