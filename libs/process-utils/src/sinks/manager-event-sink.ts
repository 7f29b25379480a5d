/**
 * The in-process {@link ProcessEventSink}: hands events straight to a process manager of
 * `@fw/process-service` (or anything with the same `sendEvent`).
 *
 * @example
 * const manager = makeProcessManager({ db, configurator, workerStarter });
 * const batchService = makeBatchService({ workers, sink: makeManagerEventSink(manager) });
 */
import { childResultsLoaderOf, type ProcessEventSink } from '../ports/process-event-sink';

/** What the in-process sink needs from the manager (`ProcessManager` satisfies it). */
export interface ProcessEventReceiver {
  sendEvent(id: string, eventId: string, payload?: unknown, options?: { tenant?: string | null }): Promise<unknown>;
}

/**
 * Makes the in-process sink. Events are scoped to the worker's tenant (`{ tenant }` option of the
 * manager); an aggregator's children's results are paged from the manager when it can
 * (`childResultPages`).
 */
export function makeManagerEventSink(receiver: ProcessEventReceiver): ProcessEventSink {
  const loadChildResults = childResultsLoaderOf(receiver);
  return {
    async deliver(processId, eventId, payload, tenant) {
      await receiver.sendEvent(processId, eventId, payload, { tenant });
    },
    ...(loadChildResults ? { loadChildResults } : {}),
  };
}
