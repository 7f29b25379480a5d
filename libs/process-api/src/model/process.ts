/**
 * The Process resource (see ../../README.md) and the DTOs that create and complete it.
 *
 * @example
 * const dto: ProcessDto = { processDefName: 'nightly-import', args: { day: '2026-01-31' } };
 * // POST /process → payload.mutatedEntity: Process
 */

/** Where a process is in its flow. */
export interface ProcessState {
  flowId: string;
  stateId: string;
}

/** A JSON value as stored in `input` / `output`. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * One failure recorded on a process. `processId` is the process that failed: the process itself,
 * or one of its children (a failing child's error is also recorded on its parent).
 */
export interface ProcessErrorRecord {
  processId: string;
  /** ISO-8601 time the failing step completed. */
  timeOfCompletion: string;
  errors: string[];
  exceptionMessage: string | null;
  stackTrace: string | null;
}

/** A process as returned by the process endpoints. Times are ISO-8601 strings. */
export interface Process {
  /** UUID. */
  id: string;
  /** Name of its {@link ProcessDef}. */
  processType: string;
  leaf: boolean;
  parentId: string | null;
  predecessorId: string | null;
  triggerId: string | null;
  /** Tenant inherited from the creating request, the parent or the predecessor. */
  tenant: string | null;
  state: ProcessState;
  splitCompleted: boolean;
  numSubProcesses: number;
  numCompletedSubProcesses: number;
  /** 0..100. */
  completedPercent: number;
  input: unknown;
  output: unknown;
  errors: ProcessErrorRecord[];
  description: string | null;
  createdTime: string;
  lastModifiedTime: string;
  stateEntryTime: string;
  /** Incremented by every saved change. */
  version: number;
}

/**
 * The create payload (ProcessCreate event, POST /process).
 * `processDefName` is required; `args` becomes the process input.
 */
export interface ProcessDto {
  processDefName: string;
  args?: unknown;
  /** Trigger correlation; also accepted from header `x-fw-trigger-id`. */
  triggerId?: string | null;
  description?: string | null;
}

/**
 * Emitted when a process reaches PROCESSED or PROCESSED_WITH_ERRORS, stored in
 * `fw_process_completion_event` and consumed for chaining (POST /process/completed).
 * As a {@link ProcessDto}, `processDefName` is the completed process's type and `args` its input.
 */
export interface ProcessCompletedEvent extends ProcessDto {
  processId: string;
  processType: string;
  tenantId: string | null;
  triggerId: string | null;
  /** Terminal state id reached. */
  state: string;
  input: unknown;
  output: unknown;
  successful: boolean;
}

/** Metadata of an event allowed in the current state (the `/process` responses list them). */
export interface AllowedActionInfo {
  /** Event id to PATCH. */
  allowedAction: string;
  /** State the event is allowed in. */
  stateId: string;
  /** Free-form metadata from the flow file (for example `payloadType`). */
  metadata: Record<string, string>;
}

/** Payload of every `/process` response. */
export interface ProcessResponse {
  mutatedEntity: Process;
  allowedActionsAndMetadata: AllowedActionInfo[];
}
