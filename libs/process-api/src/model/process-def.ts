/**
 * A process definition: the data that declares a process type, its shape (leaf or not), its
 * place in chains (`predecessorProcessType`) and the config map handed to its workers.
 *
 * @example
 * const defs: ProcessDef[] = [
 *   { processType: 'import', leaf: false, config: { batchSize: '500' } },
 *   { processType: 'import-chunk', leaf: true, parentProcessType: 'import' },
 *   { processType: 'report', leaf: true, predecessorProcessType: 'import', predecessorArgs: 'OUTPUT' },
 * ];
 */
import type { HistoryRetention } from './history-retention';

/** What a successor receives as input from its completed predecessor. */
export const PredecessorArgs = {
  /** The predecessor's input. */
  INPUT: 'INPUT',
  /** The predecessor's output. */
  OUTPUT: 'OUTPUT',
  /** `{ input, output }` of the predecessor (the default). */
  BOTH: 'BOTH',
} as const;

export type PredecessorArgsMode = (typeof PredecessorArgs)[keyof typeof PredecessorArgs];

export interface ProcessDef {
  /** Key of the definition (the `processDefName` of a create payload). */
  processType: string;
  /** A leaf executes directly; a non-leaf splits, waits for its children and aggregates. */
  leaf: boolean;
  /**
   * Type of the parent. When set, a process of this type can only be created as a child of a
   * process of that type (a split naming it under another parent is refused, 400 P008); when
   * absent, any parent may create it.
   */
  parentProcessType?: string | null;
  /** When a process of this type completes, a new process of the defining type is started. */
  predecessorProcessType?: string | null;
  /** Default `BOTH`. */
  predecessorArgs?: PredecessorArgsMode | null;
  /** One map shared (as copies) by the splitter, executor and aggregator. */
  config?: Record<string, string>;
  /**
   * JSON Schema of `args`: a process of this type whose args break it is refused when it is
   * created (400 `P003` naming the field; nothing stored). Absent: any args.
   */
  inputSchema?: Record<string, unknown> | null;
  /**
   * How often a step of this type is tried when the author's code throws (durable starters):
   * `attempts` in all (1 = no retry), with exponential `backoff` between them. Without it the
   * starter's default applies (the JDBC starter: 5 attempts, 1 s doubling up to 300 s). A
   * `NonRetryableError` (or bad input) fails at once; after the last attempt the failure goes to
   * the process (PROCESSED_WITH_ERRORS), naming the attempts.
   */
  retry?: RetryPolicy | null;
  /**
   * Most work items of this type RUNNING at once, per tenant and/or in all, held across every
   * worker process of the durable work-item queue. Absent: no limit.
   */
  concurrency?: ConcurrencyLimit | null;
  /**
   * 0..9, default {@link DEFAULT_PRIORITY}; higher first within a tenant's due work. Aged: every
   * minute an item waits counts as one level, so lower priority is delayed, never starved.
   */
  priority?: number | null;
  /** Most starts per second of this type's work items, per tenant or in all. Absent: no limit. */
  rateLimit?: RateLimit | null;
  /**
   * How long a finished tree whose root is of this type is kept before the history sweeper
   * removes it (ISO-8601 durations; a field left out takes the server's or the tenant's value).
   */
  retention?: HistoryRetention | null;
}

/** The priority of a definition that sets none. */
export const DEFAULT_PRIORITY = 5;

/** See {@link ProcessDef.concurrency}; at least one of the two. */
export interface ConcurrencyLimit {
  /** RUNNING items of the type per tenant (items without a tenant count as one tenant). */
  perTenant?: number | null;
  /** RUNNING items of the type over all tenants. */
  global?: number | null;
}

/** See {@link ProcessDef.rateLimit}. */
export interface RateLimit {
  /** Starts (claims) per second; fractions allowed (0.5 = one every two seconds). */
  perSecond: number;
  /** `tenant`: each tenant has its own budget; `global`: one budget for the type. */
  scope: 'tenant' | 'global';
}

/** Retries of a failing step; see {@link ProcessDef.retry}. */
export interface RetryPolicy {
  /** Attempts in all, 1 to 100. */
  attempts: number;
  /** Delay before attempt n+1: min(baseMillis · 2^(n−1), maxMillis). Default: the runner's (1 s, at most 300 s). */
  backoff?: { baseMillis: number; maxMillis: number } | null;
}

/** The effective `predecessorArgs` of a definition (`BOTH` when absent). */
export function predecessorArgsOf(def: Pick<ProcessDef, 'predecessorArgs'>): PredecessorArgsMode {
  return def.predecessorArgs ?? PredecessorArgs.BOTH;
}
