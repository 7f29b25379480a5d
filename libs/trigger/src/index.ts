export { TriggerError, isTriggerError, TriggerErrorCodes } from './errors/trigger-error';
export type { TriggerErrorReason } from './errors/trigger-error';
export {
  TRIGGER_SOURCES,
  SUPPORTED_TRIGGER_EVENTS,
  TRIGGER_EXECUTION_STATUSES,
  MAX_CLIENT_TRIGGER_ID_LENGTH,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  manualTriggerId,
  externalTriggerId,
  cronTriggerId,
} from './model/trigger-model';
export { TRIGGER_WIRE_SCHEMAS, WIRE_UUID_PATTERN } from './model/trigger-wire-schemas';
export type {
  TriggerSource,
  TriggerEventName,
  TriggerExecutionStatus,
  TriggerPayload,
  TriggerInput,
  TriggerDispatchDto,
  TriggerDispatch,
  TriggerResult,
  TriggerExecution,
  ExecutionFilter,
  Crontab,
  NewCrontab,
  CrontabUpdate,
  WriteOptions,
  PageRequest,
  Page,
} from './model/trigger-model';
export {
  validateCronExpression,
  validateTimezone,
  validatePayload,
  validatePage,
  validateTenant,
} from './model/trigger-validation';
export { TRIGGER_TABLES, triggerDb } from './schema/trigger-tables';
export type {
  TriggerTables,
  TriggerDb,
  FwTriggerLogTable,
  FwTriggerExecutionTable,
  FwCrontabTable,
  FwSchedulerLeaseTable,
} from './schema/trigger-tables';
export { makeTriggerLogStore } from './repository/trigger-log-store';
export type { TriggerLogStore, TriggerLogEntry, NewTriggerLogEntry } from './repository/trigger-log-store';
export { makeExecutionStore } from './repository/execution-store';
export type { ExecutionStore, NewExecution, ExecutionOutcome } from './repository/execution-store';
export { makeCrontabStore } from './repository/crontab-store';
export type { CrontabStore } from './repository/crontab-store';
export { makeTriggerService, MAX_STORED_TRIGGER_ID_LENGTH } from './service/trigger-service';
export type { TriggerService, TriggerServiceOptions } from './service/trigger-service';
export { processCreateDispatch } from './service/process-create-dispatch';
export type { ProcessCreateIngress } from './service/process-create-dispatch';
export { makeSchedulerLease } from './scheduler/scheduler-lease';
export type { SchedulerLease, SchedulerLeaseOptions } from './scheduler/scheduler-lease';
export {
  makeCronScheduler,
  defaultSchedulerOwnerId,
  CRON_SCHEDULER_LEASE,
  DEFAULT_LEASE_SECONDS,
} from './scheduler/cron-scheduler';
export type { CronScheduler, CronSchedulerOptions, ScheduledRun } from './scheduler/cron-scheduler';
export { makeTriggerRouter, validateClientTriggerKey } from './http/trigger-router';
export type { TriggerRouterOptions } from './http/trigger-router';
export { triggerMigrations } from './schema/trigger-migrations';
