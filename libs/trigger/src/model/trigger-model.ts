/**
 * The trigger layer's public data shapes: trigger inputs and results, execution history records,
 * crontabs, pages, limits and the trigger id conventions.
 *
 * @example
 * const input: TriggerInput = {
 *   source: 'MANUAL', triggerId: manualTriggerId('t1', 'retry-42'), tenant: 't1',
 *   payload: { processDefName: 'nightly-import', args: { day: '2026-01-31' } },
 * };
 */
import type { FromJsonSchema } from '@fw/core';
import type { ProcessDto } from '@fw/process-api';
import type { TriggerDb } from '../schema/trigger-tables';
import { TRIGGER_EXECUTION_STATUSES, TRIGGER_SOURCES, type TRIGGER_WIRE_SCHEMAS } from './trigger-wire-schemas';

export { TRIGGER_EXECUTION_STATUSES, TRIGGER_SOURCES };

/** The TypeScript type of a wire schema of this layer (references resolved among them). */
type WireShape<Name extends keyof typeof TRIGGER_WIRE_SCHEMAS> = FromJsonSchema<
  (typeof TRIGGER_WIRE_SCHEMAS)[Name],
  typeof TRIGGER_WIRE_SCHEMAS
>;

/** Where a trigger came from. */
export type TriggerSource = (typeof TRIGGER_SOURCES)[number];

/** Events a trigger can raise (a process definition's `supportedEvents`). */
export type TriggerEventName = 'ProcessCreate';
export const SUPPORTED_TRIGGER_EVENTS: readonly TriggerEventName[] = ['ProcessCreate'];

/** Status of an accepted dispatch. COMPLETED means the dispatch returned, not that processes finished. */
export type TriggerExecutionStatus = (typeof TRIGGER_EXECUTION_STATUSES)[number];

/** The ProcessCreate payload a trigger carries (and a crontab stores): `processDefName`, optional `args` and `description`. */
export type TriggerPayload = WireShape<'StoredTriggerPayload'>;

/** One call of the trigger ingress. */
export interface TriggerInput {
  source: TriggerSource;
  /** The stored trigger id (already namespaced, for example `manual:<tenant>:<key>`). */
  triggerId: string;
  /** Default `ProcessCreate`. */
  eventName?: TriggerEventName;
  tenant: string;
  payload: TriggerPayload;
  /** The time a schedule planned this trigger for (CRON). */
  scheduledTime?: Date;
  /** The crontab that fired (CRON). */
  cronId?: string;
}

/** What the dispatch receives: the ProcessDto with the trigger id for lineage, and the tenant. */
export type TriggerDispatchDto = ProcessDto & { tenant: string; triggerId: string };

/** Delivers a ProcessCreate (in process: see {@link processCreateDispatch}). */
export type TriggerDispatch = (dto: TriggerDispatchDto) => Promise<{ processId?: string }>;

/**
 * The answer of `trigger()`: the wire shape (`triggerId`, `eventId`, `logId`; `dispatched` when this
 * call dispatched and the dispatch returned; `duplicate` when (triggerId, eventName) was already
 * logged: nothing was dispatched, no history added), plus what only an in-process caller sees.
 */
export interface TriggerResult extends WireShape<'TriggerResult'> {
  /** The history record of this call (absent for duplicates). */
  executionId?: string;
  /** RUNNING never appears here: COMPLETED, FAILED, or absent for duplicates. */
  status?: Exclude<TriggerExecutionStatus, 'RUNNING'>;
  /** Id of the process the dispatch created, when it said. */
  processId?: string;
  /** Why the dispatch failed (status FAILED); details are in the history. */
  failure?: { message: string; code?: number; subErrorCode?: string };
}

/**
 * One row of the execution history (`fw_trigger_execution`): its wire shape (times ISO-8601
 * strings) plus the stack of a failed dispatch, kept for operators and never answered over HTTP.
 */
export type TriggerExecution = WireShape<'Execution'> & { failureStack: string | null };

/** Filters of the execution history: exact matches combined with AND, always within one tenant. */
export interface ExecutionFilter {
  tenant: string;
  triggerId?: string;
  crontabId?: string;
  status?: TriggerExecutionStatus;
  source?: TriggerSource;
  /** The definition the trigger starts (`payload.processDefName`). */
  processType?: string;
}

/**
 * A durable schedule (`fw_crontab`): `cronExpression` in croner syntax (six fields, seconds first),
 * read in the IANA `timezone`. Times are ISO-8601 strings.
 */
export type Crontab = WireShape<'Crontab'>;

/** Input of `CrontabStore.add`. `timezone` defaults to `UTC`, `enabled` to true. */
export interface NewCrontab {
  name: string;
  cronExpression: string;
  timezone?: string;
  enabled?: boolean;
  payload: TriggerPayload;
}

/** Input of `CrontabStore.update`: the fields to change. */
export type CrontabUpdate = Partial<NewCrontab>;

/**
 * What a caller adds to a write of this layer (a trigger's claim, a crontab change); `Written` is
 * what the write produced (the crontab added or updated), handed to the hook.
 *
 * @example
 * await crontabs.add('t1', input, { inTransaction: (trx, created) => audit.record({ ...entry, target: created.id }, trx) });
 */
export interface WriteOptions<Written = void> {
  /**
   * Runs inside the write's transaction, after its rows and before the commit, so a row of the
   * caller's own (the administration API's audit entry) commits with the change or not at all: when
   * it throws, the write rolls back and the error reaches the caller. Not called when the write
   * changed nothing (a crontab not in the tenant, a trigger id logged for another tenant).
   */
  inTransaction?: (trx: TriggerDb, written: Written) => Promise<void>;
}

/** A page request: zero-based `page`, `size` 1..{@link MAX_PAGE_SIZE}. */
export interface PageRequest {
  page: number;
  size: number;
}

/** One page of a list, newest first. */
export interface Page<T> {
  content: T[];
  totalElements: number;
  page: number;
  size: number;
  totalPages: number;
}

/** Longest client trigger key (the part after `manual:<tenant>:`), in characters. */
export const MAX_CLIENT_TRIGGER_ID_LENGTH = 80;
/** Default and largest page size of trigger listings. */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** The stored trigger id of a manual trigger (admin API POST /triggers). */
export function manualTriggerId(tenant: string, key: string): string {
  return `manual:${tenant}:${key}`;
}

/** The stored trigger id of an external (HTTP adapter) trigger. */
export function externalTriggerId(tenant: string, key: string): string {
  return `external:${tenant}:${key}`;
}

/** The deterministic trigger id of one scheduled firing: the same on every scheduler instance. */
export function cronTriggerId(crontabId: string, scheduledTime: Date): string {
  return `cron:${crontabId}:${scheduledTime.toISOString()}`;
}
