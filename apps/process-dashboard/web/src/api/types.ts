/**
 * The shapes of the administration API (`/process-management/api`) as the dashboard reads them.
 * The answers' types are not written here: they are read from the server's answer schemas (the
 * `components.schemas` of its OpenAPI document) and imported type-only from
 * `@fw/process-management`, so no server code reaches the browser bundle. What stays here is the
 * dashboard's own: the request parameters it builds, and the few value lists its filters offer
 * (each checked against the answer types). `test/openapi-contract.test.ts` checks the paths,
 * methods and query parameters the client uses, and every answer body it reads, against the
 * served OpenAPI document.
 */
import type {
  AuditEntryWire,
  CallerWire,
  CompletionEventWire,
  CrontabWire,
  ExecutionWire,
  HealthBacklogWire,
  HealthBucketWire,
  HealthRowWire,
  HealthWire,
  InfoWire,
  Page,
  ProcessDefWire,
  ProcessDetailWire,
  ProcessErrorWire,
  ProcessSummaryWire,
  StoredTriggerPayloadWire,
  TraceEdgeWire,
  TraceNodeWire,
  TraceWire,
  TriggerResultWire,
} from '@fw/process-management';

export type { Page };
export type ManagementInfo = InfoWire;

export const PROCESS_STATUSES = [
  'EXECUTING',
  'SPLIT_PENDING',
  'SUB_PROCESSES_PENDING',
  'AGGREGATION_PENDING',
  'PROCESSED',
  'PROCESSED_WITH_ERRORS',
] as const;
export type ProcessStatus = (typeof PROCESS_STATUSES)[number];
/** The states a process ends in: a root in one of them may be removed with its tree (once none of it runs). */
export const FINISHED_STATUSES = ['PROCESSED', 'PROCESSED_WITH_ERRORS'] as const satisfies readonly ProcessStatus[];

export type ProcessSummary = ProcessSummaryWire;
export type ProcessErrorRecord = ProcessErrorWire;
export type CompletionEvent = CompletionEventWire;
export type ProcessDetail = ProcessDetailWire;

export type TraceNodeKind = TraceNodeWire['kind'];
export type TraceEdgeKind = TraceEdgeWire['kind'];
export const TRACE_EDGE_KINDS = [
  'PROCESS_CREATE',
  'SUBPROCESS',
  'EMITS',
  'SUCCESSOR',
  'LEGACY_SUCCESSOR',
] as const satisfies readonly TraceEdgeKind[];

export type TraceNode = TraceNodeWire;
export type TraceEdge = TraceEdgeWire;
export type TraceGraph = TraceWire;

export type ExecutionStatus = ExecutionWire['status'];
export const EXECUTION_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED'] as const satisfies readonly ExecutionStatus[];
export type TriggerSource = ExecutionWire['source'];
export const TRIGGER_SOURCES = ['CRON', 'MANUAL', 'EXTERNAL'] as const satisfies readonly TriggerSource[];

export type TriggerPayload = StoredTriggerPayloadWire;
export type Execution = ExecutionWire;
export type TriggerResult = TriggerResultWire;
export type Crontab = CrontabWire;

/** The body of a crontab write: the fields of a crontab the client sets. */
export type CrontabInput = Pick<Crontab, 'name' | 'cronExpression' | 'timezone' | 'enabled' | 'payload'>;

export type PredecessorArgsMode = ProcessDefWire['predecessorArgs'];
/** A definition as the API answers it. */
export type ProcessDef = ProcessDefWire;
/** The body of a definition write: its type and kind, anything else optional (the server fills defaults). */
export type ProcessDefBody = Pick<ProcessDef, 'processType' | 'leaf'> &
  Partial<Omit<ProcessDef, 'processType' | 'leaf'>>;

export interface ProcessFilter {
  processType?: string;
  status?: string;
  triggerId?: string;
  parentId?: string;
  predecessorId?: string;
  roots?: boolean;
  q?: string;
}

export interface ExecutionFilter {
  triggerId?: string;
  crontabId?: string;
  status?: ExecutionStatus;
  source?: TriggerSource;
  processType?: string;
}

export interface PageParams {
  page: number;
  size: number;
}

/** The roles of the administration API, weakest first. */
export type Role = NonNullable<Caller['role']>;

/** `GET /me`: the caller as the server sees it (`tenants` `['*']` for every tenant). */
export type Caller = CallerWire;

/** One row of `GET /audit`. */
export type AuditEntry = AuditEntryWire;

export interface AuditFilter {
  actor?: string;
  action?: string;
  /** ISO-8601 instants. */
  from?: string;
  to?: string;
}

/** `GET /health`: per process type of the tenant, throughput, backlog and wait over the last hour. */
export type Health = HealthWire;
export type HealthRow = HealthRowWire;
export type HealthBucket = HealthBucketWire;
export type HealthBacklog = HealthBacklogWire;
