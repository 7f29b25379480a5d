export { WorkItemStatus, WORK_ITEM_TABLES, workItemDb } from './schema/work-item-tables';
export type { FwProcessWorkItemTable, WorkItemTables } from './schema/work-item-tables';
export { makeWorkItemRepository, idempotencyKeyOf } from './repository/work-item-repository';
export type {
  WorkItemRepository,
  ClaimedWorkItem,
  ClaimOptions,
  EnqueueOptions,
} from './repository/work-item-repository';
export { makeWorkItemStarter, WORK_ITEM_CHANNEL } from './starter/work-item-starter';
export type { WorkItemStarter, WorkItemStarterOptions } from './starter/work-item-starter';
export { makeWorkItemRunner } from './runner/work-item-runner';
export type {
  WorkItemRunner,
  WorkItemRunnerOptions,
  WorkItemRunnerStats,
  WorkItemRunnerEvent,
  WorkItemRunnerEventType,
  StopResult,
  WakeSource,
} from './runner/work-item-runner';
export { batchServiceHandler, WorkItemAttemptError } from './runner/work-item-handler';
export type { WorkItemHandler, WorkItemContext, WorkItemResult, BatchServiceLike } from './runner/work-item-handler';
export { exponentialBackoff } from './runner/backoff';
export type { BackoffPolicy, ExponentialBackoffOptions } from './runner/backoff';
export { makePgNotificationListener } from './runner/pg-notification-listener';
export type { PgNotificationListenerOptions } from './runner/pg-notification-listener';
export {
  makeSinkFailureReporter,
  deadItemErrorPayload,
  FAILURE_EVENT_BY_WORKER_TYPE,
} from './reporting/failure-reporter';
export type { DeadItemReporter, DeadWorkItem, FailureEventSink } from './reporting/failure-reporter';
export { queueDepth } from './monitoring/queue-depth';
export type { QueueDepth } from './monitoring/queue-depth';
export { makeQueueFiguresReader, readWorkItemFigures } from './monitoring/work-item-figures';
export type { WorkItemFigures } from './monitoring/work-item-figures';
export { makeJdbcWorkerHost, DEFAULT_RECOVERY_SECONDS, DEFAULT_DRAIN_MILLIS } from './host/jdbc-worker-host';
export type { JdbcWorkerHost, JdbcWorkerHostOptions, JdbcWorkerHostStopResult } from './host/jdbc-worker-host';
export { makeFairClaimer } from './fairness/fair-claimer';
export type { FairClaimer, FairClaimerOptions } from './fairness/fair-claimer';
export {
  workLimitsOfConfigurator,
  workLimitsOfDefinitions,
  fixedWorkLimits,
  DEFAULT_LIMITS_REFRESH_MILLIS,
} from './fairness/work-limits';
export type { WorkLimits, WorkLimitsByType, WorkLimitsSource } from './fairness/work-limits';
export { jdbcProcessStarterMigrations } from './schema/jdbc-process-starter-migrations';
