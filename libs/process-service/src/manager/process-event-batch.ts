/**
 * `manager.sendEvents`: many events, to many processes, in ONE transaction with set-based SQL
 * (one statement loads the processes with their errors, one saves them, one inserts the
 * completion events, one the outbox commands). Each event keeps the outcome it would have had on
 * its own (`sendEvent`): a refused event fails alone. Events that create or count children
 * (`splitPartiallyDone`, `splitDone`, `subProcessDone*`) and several events for one process go
 * through `sendEvent`, one transaction each, in order; so does the whole batch when its transaction
 * fails (for example a concurrent change), so one bad row never fails its neighbours.
 */
import { currentTenantId } from '@fw/core';
import { ProcessEvents, type ProcessResponse } from '@fw/process-api';
import { eventNotAllowed, type ProcessFlow } from '../flow/process-flow';
import { makeProcessBatchRepository } from '../repository/process-batch-repository';
import { isUuid, validateEventPayload } from './payload-validation';
import { notFound, type BatchedEvent, type ProcessEngine, type TxContext } from './process-engine';

/** One event of {@link sendEventBatch}. */
export interface ProcessEventRequest {
  /** Process id. */
  id: string;
  eventId: string;
  payload?: unknown;
  /** As `ProcessCallOptions.tenant`: a process of another tenant answers 404; default the current context's tenant. */
  tenant?: string | null;
}

/** The outcome of one event: its response, or the error `sendEvent` would have thrown. */
export type ProcessEventResult = { ok: true; response: ProcessResponse } | { ok: false; error: unknown };

/** Events applied in memory on a loaded process without creating or counting children. */
const BATCHABLE: ReadonlySet<string> = new Set([
  ProcessEvents.doneSuccessfully,
  ProcessEvents.doneWithErrors,
  ProcessEvents.statusUpdate,
  ProcessEvents.aggregationDone,
  ProcessEvents.aggregationDoneWithErrors,
  ProcessEvents.splitDoneWithErrors,
]);

export interface EventBatchDeps {
  engine: ProcessEngine;
  flow(): Promise<ProcessFlow>;
  inTransaction<T>(fn: (ctx: TxContext) => Promise<T>): Promise<T>;
  /** The single-event path (`manager.sendEvent`). */
  sendEvent(
    id: string,
    eventId: string,
    payload: unknown,
    options: { tenant?: string | null },
  ): Promise<ProcessResponse>;
}

/**
 * The response of an applied event, its allowed actions built only when read: a batch of leaves
 * reporting through a sink only needs to know that each event was applied.
 */
function lazyResponse(flow: ProcessFlow, process: ProcessResponse['mutatedEntity']): ProcessResponse {
  let actions: ProcessResponse['allowedActionsAndMetadata'] | undefined;
  return {
    mutatedEntity: process,
    get allowedActionsAndMetadata() {
      return (actions ??= flow.allowedActions(process.state));
    },
  };
}

async function settle(fn: () => Promise<ProcessResponse>): Promise<ProcessEventResult> {
  try {
    return { ok: true, response: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Makes the `sendEvents` implementation over the manager's internals. */
export function makeEventBatchSender(
  deps: EventBatchDeps,
): (events: readonly ProcessEventRequest[]) => Promise<ProcessEventResult[]> {
  const batchRepo = makeProcessBatchRepository();

  return async (events) => {
    const flow = await deps.flow();
    const results: ProcessEventResult[] = new Array<ProcessEventResult>(events.length);
    const single = (i: number) =>
      settle(() => deps.sendEvent(events[i].id, events[i].eventId, events[i].payload, { tenant: events[i].tenant }));
    const byProcess = new Map<string, number[]>();
    events.forEach((e, i) => {
      const key = typeof e.id === 'string' ? e.id.toLowerCase() : '';
      byProcess.set(key, [...(byProcess.get(key) ?? []), i]);
    });
    const batched: number[] = [];
    const oneByOne: number[] = [];
    for (const [id, indexes] of byProcess) {
      if (indexes.length === 1 && isUuid(id) && BATCHABLE.has(events[indexes[0]].eventId)) batched.push(indexes[0]);
      else oneByOne.push(...indexes);
    }

    if (batched.length > 0) {
      try {
        const outcomes = await deps.inTransaction(async (ctx) => {
          ctx.countChildrenInline = true;
          // Read without row locks: the save checks each process's version (a process changed
          // meanwhile fails the batch, which then goes event by event), so a lock would only add
          // a write per process to every batch.
          const loaded = await batchRepo.findMany(
            ctx.trx,
            batched.map((i) => events[i].id.toLowerCase()),
            false,
          );
          const found: Array<{ index: number; item: BatchedEvent }> = [];
          const refused = new Map<number, unknown>();
          for (const i of batched) {
            const e = events[i];
            const process = loaded.get(e.id.toLowerCase());
            const scope = e.tenant !== undefined ? (e.tenant ?? undefined) : currentTenantId();
            try {
              if (!process || (scope !== undefined && process.tenant !== scope)) throw notFound(e.id);
              if (!flow.isAllowed(process.state, e.eventId)) throw eventNotAllowed(process.state, e.eventId);
              found.push({
                index: i,
                item: { process, eventId: e.eventId, payload: validateEventPayload(e.eventId, e.payload) },
              });
            } catch (error) {
              refused.set(i, error);
            }
          }
          const failures = await deps.engine.applyEventBatch(
            ctx,
            found.map((f) => f.item),
          );
          for (const f of found) {
            const failure = failures.get(f.item.process.id);
            if (failure !== undefined) refused.set(f.index, failure);
          }
          return { found, refused };
        });
        for (const [i, error] of outcomes.refused) results[i] = { ok: false, error };
        for (const { index, item } of outcomes.found) {
          if (!outcomes.refused.has(index)) results[index] = { ok: true, response: lazyResponse(flow, item.process) };
        }
      } catch {
        // The batch's transaction failed as a whole (a concurrent change, a lost connection):
        // every event gets its own transaction, and its own outcome.
        for (const i of batched) results[i] = await single(i);
      }
    }
    for (const i of oneByOne) results[i] = await single(i);
    return results;
  };
}
