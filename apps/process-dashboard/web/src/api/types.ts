/**
 * The shapes of the administration API (`/process-management/api`) as the dashboard
 * reads them. Kept by hand next to the client; `test/openapi-contract.test.ts` checks the paths,
 * methods and query parameters the client uses against the server's OpenAPI document.
 */

export interface Page<T> {
  content: T[];
  totalElements: number;
  page: number;
  size: number;
  totalPages: number;
  /** Present when `totalElements` is the server's estimate (a list above its exact-count limit). */
  totalElementsEstimated?: true;
}

export interface ManagementInfo {
  definitionSource: 'json' | 'database';
  definitionsWritable: boolean;
  cronAvailable: boolean;
  supportedEvents: string[];
}

export const PROCESS_STATUSES = [
  'EXECUTING',
  'SPLIT_PENDING',
  'SUB_PROCESSES_PENDING',
  'AGGREGATION_PENDING',
  'PROCESSED',
  'PROCESSED_WITH_ERRORS',
] as const;
export type ProcessStatus = (typeof PROCESS_STATUSES)[number];

export interface ProcessSummary {
  id: string;
  processType: string;
  leaf: boolean;
  status: string;
  parentId: string | null;
  predecessorId: string | null;
  triggerId: string | null;
  tenant: string | null;
  completedPercent: number;
  numSubProcesses: number;
  numCompletedSubProcesses: number;
  description: string | null;
  createdTime: string;
  lastModifiedTime: string;
  stateEntryTime: string;
}

export interface ProcessErrorRecord {
  processId: string;
  timeOfCompletion: string;
  errors: string[];
  exceptionMessage: string | null;
  stackTrace: string | null;
}

export interface CompletionEvent {
  id: string;
  processId: string;
  processType: string;
  state: string;
  successful: boolean;
  triggerId: string | null;
  generatedTime: string;
  payload: unknown;
}

export interface ProcessDetail {
  id: string;
  processType: string;
  leaf: boolean;
  parentId: string | null;
  predecessorId: string | null;
  triggerId: string | null;
  tenant: string | null;
  state: { flowId: string; stateId: string };
  splitCompleted: boolean;
  numSubProcesses: number;
  numCompletedSubProcesses: number;
  completedPercent: number;
  input: unknown;
  output: unknown;
  errors: ProcessErrorRecord[];
  description: string | null;
  createdTime: string;
  lastModifiedTime: string;
  stateEntryTime: string;
  version: number;
  status: string;
  completionEvents: CompletionEvent[];
}

export type TraceNodeKind = 'TRIGGER' | 'PROCESS' | 'COMPLETION';
export type TraceEdgeKind = 'PROCESS_CREATE' | 'SUBPROCESS' | 'EMITS' | 'SUCCESSOR' | 'LEGACY_SUCCESSOR';
export const TRACE_EDGE_KINDS: readonly TraceEdgeKind[] = [
  'PROCESS_CREATE',
  'SUBPROCESS',
  'EMITS',
  'SUCCESSOR',
  'LEGACY_SUCCESSOR',
];

export interface TraceNode {
  id: string;
  kind: TraceNodeKind;
  label: string;
  status: string | null;
  time: string | null;
  data: Record<string, unknown>;
}

export interface TraceEdge {
  source: string;
  target: string;
  kind: TraceEdgeKind;
}

export interface TraceGraph {
  nodes: TraceNode[];
  edges: TraceEdge[];
}

export const EXECUTION_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const TRIGGER_SOURCES = ['CRON', 'MANUAL', 'EXTERNAL'] as const;
export type TriggerSource = (typeof TRIGGER_SOURCES)[number];

export interface TriggerPayload {
  processDefName: string;
  args?: Record<string, unknown>;
}

export interface Execution {
  id: string;
  triggerId: string;
  tenant: string;
  source: TriggerSource;
  scheduledTime: string | null;
  receivedTime: string;
  startTime: string | null;
  finishTime: string | null;
  eventName: string;
  payload: TriggerPayload;
  status: ExecutionStatus;
  failureMessage: string | null;
  /** Left out of the API's execution lists (strict response schemas). */
  failureStack?: string | null;
  cronId: string | null;
  processId: string | null;
  logId: string;
  eventId: string;
}

export interface TriggerResult {
  triggerId: string;
  eventId: string;
  logId: string;
  dispatched: boolean;
  duplicate: boolean;
}

export interface Crontab {
  id: string;
  tenant: string;
  name: string;
  cronExpression: string;
  timezone: string;
  enabled: boolean;
  payload: TriggerPayload;
  createdAt: string;
  updatedAt: string;
  lastFiredAt: string | null;
  lastScheduledTime: string | null;
}

export interface CrontabInput {
  name: string;
  cronExpression: string;
  timezone: string;
  enabled: boolean;
  payload: TriggerPayload;
}

export type PredecessorArgsMode = 'INPUT' | 'OUTPUT' | 'BOTH';

export interface ProcessDef {
  processType: string;
  leaf: boolean;
  parentProcessType?: string | null;
  predecessorProcessType?: string | null;
  predecessorArgs?: PredecessorArgsMode | null;
  config?: Record<string, string>;
  inputSchema?: Record<string, unknown> | null;
  retry?: { attempts: number; backoff?: { baseMillis: number; maxMillis: number } | null } | null;
  /** Most RUNNING work items per tenant and/or in all. */
  concurrency?: { perTenant?: number | null; global?: number | null } | null;
  /** 0..9, higher first within a tenant (5 when absent). */
  priority?: number | null;
  /** Most starts per second, per tenant or in all. */
  rateLimit?: { perSecond: number; scope: 'tenant' | 'global' } | null;
}

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
export type Role = 'viewer' | 'operator' | 'admin';

/** `GET /me`: the caller as the server sees it. */
export interface Caller {
  actor: string;
  credential: 'key' | 'jwt';
  role: Role | null;
  /** The tenants the caller may see; `['*']` for every tenant. */
  tenants: string[];
  /** The operationIds its role allows. */
  operations: string[];
}

/** One row of `GET /audit`. */
export interface AuditEntry {
  id: string;
  time: string;
  actor: string;
  credential: 'key' | 'jwt';
  tenant: string | null;
  action: string;
  target: string | null;
  outcome: 'ok' | 'refused' | 'failed';
  requestId: string;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  /** ISO-8601 instants. */
  from?: string;
  to?: string;
}
