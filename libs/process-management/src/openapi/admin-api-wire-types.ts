/**
 * The TypeScript types of the administration API's answers, read from their JSON Schemas (the
 * `components.schemas` of the OpenAPI document) with `FromJsonSchema`. Nothing here is written by
 * hand: a field added to a schema appears in its type, on the server and in the dashboard, which
 * imports these types (type-only) from `@fw/process-management`.
 *
 * @example
 * import type { CrontabWire, WireShape } from '@fw/process-management';
 * const names = (page: WireShape<'CrontabPage'>) => page.content.map((c: CrontabWire) => c.name);
 */
import type { FromJsonSchema } from '@fw/core';
import type { ACCESS_SCHEMAS } from '../audit/audit-schemas';
import type { RESPONSE_SCHEMAS } from './admin-api-response-schemas';

/** Every answer schema by its component name (references resolve among them). */
export type AnswerSchemas = typeof RESPONSE_SCHEMAS & typeof ACCESS_SCHEMAS;

/** The type of the answer schema `Name` (`#/components/schemas/<Name>`). */
export type WireShape<Name extends keyof AnswerSchemas> = FromJsonSchema<AnswerSchemas[Name], AnswerSchemas>;

/** `GET /info`. */
export type InfoWire = WireShape<'Info'>;
/** One row of `GET /processes` (input and output are left to `GET /processes/{id}`). */
export type ProcessSummaryWire = WireShape<'ProcessSummary'>;
/** `GET /processes/{id}`: the process as stored, its status and its completion events. */
export type ProcessDetailWire = WireShape<'ProcessDetail'>;
/** A failure a worker reported, in `ProcessDetailWire.errors`. */
export type ProcessErrorWire = WireShape<'ProcessError'>;
/** A stored ProcessCompleted event. */
export type CompletionEventWire = WireShape<'CompletionEvent'>;
/** `GET /processes/{id}/trace`. */
export type TraceWire = WireShape<'Trace'>;
/** A node of a trace: a trigger, a process or a completion (by `kind`). */
export type TraceNodeWire = WireShape<'TraceNode'>;
export type TraceEdgeWire = WireShape<'TraceEdge'>;
/** An accepted dispatch, as `GET /executions` lists it. */
export type ExecutionWire = WireShape<'Execution'>;
/** The ProcessCreate payload of a trigger or crontab, as stored. */
export type StoredTriggerPayloadWire = WireShape<'StoredTriggerPayload'>;
/** The answer of `POST /triggers`. */
export type TriggerResultWire = WireShape<'TriggerResult'>;
export type CrontabWire = WireShape<'Crontab'>;
/** A process definition, as `GET /definitions` lists it. */
export type ProcessDefWire = WireShape<'ProcessDef'>;
/** `POST /definitions/refresh`. */
export type RefreshWire = WireShape<'Refresh'>;
/** `GET /me`: the caller as the server sees it. */
export type CallerWire = WireShape<'Caller'>;
/** One row of `GET /audit`. */
export type AuditEntryWire = WireShape<'AuditEntry'>;
/** `GET /health`: throughput, backlog and wait per process type of the tenant. */
export type HealthWire = WireShape<'Health'>;
/** One process type of `GET /health`. */
export type HealthRowWire = WireShape<'HealthRow'>;
/** Processes finished in one 5-minute bucket of a `HealthRowWire`. */
export type HealthBucketWire = WireShape<'HealthBucket'>;
/** Work items of one worker type now, in a `HealthRowWire`. */
export type HealthBacklogWire = WireShape<'HealthBacklog'>;
