/** The labels and handles of the per-process and per-work-item fw_* series. */

/** Labels of every process-level series. `tenant` absent (single-tenant) is written as an empty label. */
export interface ProcessLabels {
  tenant?: string | null;
  /** The process definition's type, never a process id. */
  processType: string;
}

/** Labels of the work-item series: the process labels and the worker type of the item. */
export interface WorkItemLabels extends ProcessLabels {
  workerType: string;
}

/** How a process ended: `success`, or `errors` for every other terminal state. */
export type ProcessOutcome = 'success' | 'errors';
/** What one work-item attempt led to. */
export type AttemptResult = 'success' | 'retry' | 'dead';
/**
 * The series of one tenant and process type, resolved once: recording through it adds in memory,
 * no labels are checked or looked up.
 */
export interface ProcessSeries {
  /** Processes created: `fw_processes_created_total`. */
  created(count?: number): void;
  /** A process reached a terminal state: `fw_processes_finished_total{outcome}` and `fw_process_duration_seconds`. */
  finished(outcome: ProcessOutcome, durationSeconds: number): void;
}

/** The series of one tenant, process type and worker type, resolved once (see {@link ProcessSeries}). */
export interface WorkItemSeries {
  /** A work item was claimed: `fw_work_item_wait_seconds` (due → claimed). */
  claimed(waitSeconds: number): void;
  /** A work-item attempt ended: `fw_work_item_attempts_total{result}`. */
  attempt(result: AttemptResult): void;
}
