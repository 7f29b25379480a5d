/**
 * The port through which workers report to the process service. Two adapters exist:
 * {@link makeManagerEventSink} (same process, calls the manager) and the HTTP client of
 * `@fw/process-delegate` (whose `deliver` method has this exact signature).
 *
 * @example
 * const sink: ProcessEventSink = makeManagerEventSink(manager);           // in-process
 * const remote: ProcessEventSink = makeProcessDelegate({ baseUrl });       // over HTTP
 * await sink.deliver(processId, 'doneSuccessfully', { output: { rows: 3 } }, 'tenant-a');
 */
import type { SubProcessResult } from '@fw/process-api';

export interface ProcessEventSink {
  /**
   * Delivers one state-machine event to the process, under `tenant` (null: no tenant).
   * Rejects with an error carrying a numeric `code` (HTTP status) and a `subErrorCode` when the
   * service refuses it (for example 422 `P010` when the event is not allowed in the current state).
   */
  deliver(processId: string, eventId: string, payload: unknown, tenant: string | null): Promise<void>;
  /**
   * Optional: delivers many events at once; each result is what its own `deliver` would have done
   * (`ok`, or the error it would have rejected with), in order. Batch launch modes use it when it
   * is there (`BatchService.runMany`); {@link makeBatchingEventSink} has it.
   */
  deliverMany?(events: readonly EventDelivery[]): Promise<ReadonlyArray<{ ok: true } | { ok: false; error: unknown }>>;
  /**
   * Optional: the results of a process's direct children, for an aggregator whose message carries
   * none (a split of more than a thousand children sends them without: the step reads them here).
   * {@link makeManagerEventSink} and {@link makeBatchingEventSink} have it when their manager can
   * page the results (`ProcessManager.childResultPages`); `BatchServiceOptions.loadChildResults` wins.
   */
  loadChildResults?: ChildResultsLoader;
}

/** One event of {@link ProcessEventSink.deliverMany}. */
export interface EventDelivery {
  processId: string;
  eventId: string;
  payload: unknown;
  tenant: string | null;
}

/**
 * Loads the results of a process's direct children in creation order, for aggregators whose
 * worker message carries no `subProcessResults`: all at once (`@fw/process-delegate` has one), or
 * page by page as an async iterable, so a `ReducingAggregatorBase` folds a million children
 * without holding them all.
 */
export type ChildResultsLoader = (
  processId: string,
  tenant: string | null,
) => Promise<SubProcessResult[]> | AsyncIterable<readonly SubProcessResult[]>;

/** What a sink needs of its manager to page children's results (`ProcessManager` has it). */
export interface ChildResultPages {
  childResultPages(processId: string, pageSize?: number): AsyncIterable<readonly SubProcessResult[]>;
}

/** The page-by-page loader over `receiver`, when it can page; else undefined. */
export function childResultsLoaderOf(receiver: object): ChildResultsLoader | undefined {
  const pages = (receiver as Partial<ChildResultPages>).childResultPages;
  return typeof pages === 'function' ? (processId) => pages.call(receiver, processId) : undefined;
}
