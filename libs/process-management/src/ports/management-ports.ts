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
import type { ManagementAccessOptions, ResolvedAccess } from '../access/access-guard';
import type { AuditHandle } from '../audit/audit-store';
import type { ProcessConfigurator } from '@fw/process-api';
import { TRIGGER_EXECUTION_STATUSES } from '@fw/trigger';
import type { Page, PageRequest } from '../http/pagination';
import type {
  CrontabWire,
  ExecutionWire,
  StoredTriggerPayloadWire,
  TriggerResultWire,
} from '../openapi/admin-api-wire-types';

// The records below are the answer schemas' types: `@fw/trigger` derives its own records from the
// same schemas, so its services satisfy these ports by construction.

/** Where an activation came from. */
export type TriggerSourceKind = ExecutionWire['source'];

/** Execution history statuses. */
export const EXECUTION_STATUSES = TRIGGER_EXECUTION_STATUSES;
export type ExecutionStatus = ExecutionWire['status'];

/** The ProcessCreate payload of a trigger or crontab (`description`: of the created process). */
export type TriggerPayload = StoredTriggerPayloadWire;

export interface TriggerRequest {
  source: TriggerSourceKind;
  triggerId: string;
  eventName?: string;
  tenant: string;
  payload: TriggerPayload;
}

/** The answer of POST /triggers. */
export type TriggerResult = TriggerResultWire;

export interface ExecutionFilter {
  tenant: string;
  triggerId?: string;
  crontabId?: string;
  status?: ExecutionStatus;
  source?: TriggerSourceKind;
  /** The definition the trigger starts (`payload.processDefName`). */
  processType?: string;
}

/** An execution as the API answers it (times ISO-8601). */
export type ExecutionView = ExecutionWire;

/**
 * One accepted dispatch (fw_trigger_execution), as `@fw/trigger`'s TriggerService lists it: the
 * answer plus the stack of a failed dispatch, kept in the database for operators and never
 * answered (no stack traces in HTTP bodies).
 */
export type ExecutionRecord = ExecutionView & { failureStack?: string | null };

/**
 * What the API hands a write of a port: `inTransaction` runs inside the write's transaction, after
 * its rows and before the commit, and writes the audit row there, so the change and its row commit
 * together (when it throws, the write must roll back). `written` is what the write produced. A port
 * that cannot run it may ignore it: the row is then written right after the change.
 */
export interface ChangeOptions<Written = void> {
  inTransaction?: (trx: AuditHandle, written: Written) => Promise<void>;
}

/** The trigger ingress and its history (`@fw/trigger`'s TriggerService). */
export interface TriggerServicePort {
  /** `options.inTransaction` runs in the transaction that claims the trigger id (for a duplicate too). */
  trigger(input: TriggerRequest, options?: ChangeOptions): Promise<TriggerResult>;
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

/** A stored crontab, as `@fw/trigger`'s CrontabStore returns it and GET /crontabs answers it. */
export type CrontabRecord = CrontabWire;

/** Tenant-scoped crontab storage (`@fw/trigger`'s CrontabStore). */
export interface CrontabStorePort {
  list(tenant: string, page: PageRequest): Promise<Page<CrontabRecord>>;
  get(id: string, tenant: string): Promise<CrontabRecord | undefined | null>;
  add(tenant: string, input: CrontabInput, options?: ChangeOptions<CrontabRecord>): Promise<CrontabRecord>;
  update(
    id: string,
    tenant: string,
    changes: Partial<CrontabInput>,
    options?: ChangeOptions<CrontabRecord>,
  ): Promise<CrontabRecord | undefined | null>;
  /** Deletes; false when the tenant has no crontab with that id. */
  remove(id: string, tenant: string, options?: ChangeOptions): Promise<boolean>;
  /** Crontabs of every tenant starting `processDefName` (a definition in use cannot be deleted). */
  countUsing(processDefName: string): Promise<number>;
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
  /**
   * An administration key (at least 32 characters): admin over every tenant. Optional when
   * `access` names the credentials.
   */
  apiKey?: string;
  /**
   * Further credentials: keys with their role and tenants (several during a rotation), bearer
   * tokens (JWKS, issuer, audience), the limit of refused credentials per address.
   */
  access?: ManagementAccessOptions | ResolvedAccess;
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
  /**
   * Totals of process lists are counted exactly up to this many rows; above it they are the
   * planner's estimate, marked `totalElementsEstimated: true` (default 100,000).
   */
  countExactLimit?: number;
}
