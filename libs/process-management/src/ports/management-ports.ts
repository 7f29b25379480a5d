/**
 * What the administration API needs from the rest of the host, as small structural ports.
 * `@fw/trigger`'s `makeTriggerService`, `makeCrontabStore` and `makeCronScheduler` satisfy them;
 * a host without cron simply leaves `crontabs`/`scheduler` out (cron writes then answer 503).
 *
 * @example
 * const ports: ManagementPorts = {
 *   database, apiKey, definitions: { source: 'database', configurator },
 *   triggerService: makeTriggerService({ database, dispatch }),
 *   crontabs: makeCrontabStore(database), scheduler,
 * };
 */
import type { Database, Logger } from '@fw/core';
import type { ProcessConfigurator } from '@fw/process-api';
import type { Page, PageRequest } from '../http/pagination';

/** Where an activation came from. */
export type TriggerSourceKind = 'CRON' | 'MANUAL' | 'EXTERNAL';

/** Execution history statuses. */
export const EXECUTION_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** The ProcessCreate payload of a trigger or crontab. */
export interface TriggerPayload {
  processDefName: string;
  args?: Record<string, unknown>;
}

export interface TriggerRequest {
  source: TriggerSourceKind;
  triggerId: string;
  eventName?: string;
  tenant: string;
  payload: TriggerPayload;
}

/** The answer of POST /triggers. */
export interface TriggerResult {
  triggerId: string;
  eventId: string;
  logId: string;
  dispatched: boolean;
  duplicate: boolean;
}

export interface ExecutionFilter {
  tenant: string;
  triggerId?: string;
  crontabId?: string;
  status?: ExecutionStatus;
}

/**
 * One accepted dispatch (fw_trigger_execution) as the API shows it. Only the fields the trace
 * reads are named; the rest of the trigger service's record is passed through unchanged.
 */
export interface ExecutionRecord {
  id: string;
  triggerId: string;
  status: string;
  source: string;
  /** ISO-8601. */
  receivedTime: string;
  startTime: string | null;
  scheduledTime: string | null;
}

/** The trigger ingress and its history (`@fw/trigger`'s TriggerService). */
export interface TriggerServicePort {
  trigger(input: TriggerRequest): Promise<TriggerResult>;
  listExecutions(filter: ExecutionFilter, page: PageRequest): Promise<Page<ExecutionRecord>>;
}

/** Fields of a crontab as written by POST/PUT /crontabs. */
export interface CrontabInput {
  name: string;
  cronExpression: string;
  timezone: string;
  enabled: boolean;
  payload: TriggerPayload;
}

/** A stored crontab (the store's record is passed through unchanged). */
export interface CrontabRecord {
  id: string;
}

/** Tenant-scoped crontab storage (`@fw/trigger`'s CrontabStore). */
export interface CrontabStorePort {
  list(tenant: string, page: PageRequest): Promise<Page<CrontabRecord>>;
  get(id: string, tenant: string): Promise<CrontabRecord | undefined | null>;
  add(tenant: string, input: CrontabInput): Promise<CrontabRecord>;
  update(id: string, tenant: string, changes: Partial<CrontabInput>): Promise<CrontabRecord | undefined | null>;
}

/** The cron scheduler; reloaded after every crontab change. */
export interface CronSchedulerPort {
  reload(): Promise<unknown> | unknown;
}

/** Where definitions come from (`fw.process.configurator`). */
export interface DefinitionSourcePort {
  source: 'json' | 'database';
  configurator: ProcessConfigurator;
}

/** Everything {@link makeProcessManagementRouter} is built from. */
export interface ManagementPorts {
  /** The process database (fw_process, fw_process_completion_event, process_definition). */
  database: Pick<Database, 'db'>;
  /** The administration key, at least 32 characters. */
  apiKey: string;
  definitions: DefinitionSourcePort;
  /** Without it POST /triggers and GET /executions answer 503 and traces show bare trigger ids. */
  triggerService?: TriggerServicePort;
  /** Without it /crontabs answers 503. */
  crontabs?: CrontabStorePort;
  /** Without it cron writes answer 503 (`cronAvailable: false`). */
  scheduler?: CronSchedulerPort;
  /**
   * Maps errors of the crontab store to HTTP statuses: return 409/400 for its duplicate-name and
   * invalid-expression errors (default: recognises `@fw/trigger`'s typed errors by their fields).
   */
  classifyCrontabError?: (error: unknown) => { status: number; message: string } | undefined;
  /** Builds the stored trigger id of a manual trigger (default `manual:<tenant>:<key>`). */
  manualTriggerId?: (tenant: string, key: string) => string;
  logger?: Logger;
  /** Largest accepted JSON body (default `1mb`). */
  bodyLimit?: string;
  /** Where the API is mounted (default `/process-management/api`). */
  basePath?: string;
}
