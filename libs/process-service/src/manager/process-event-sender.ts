/**
 * `manager.sendEvent`: one event to one process in one transaction. Split events and child reports
 * take their own routes because both would otherwise hold a parent's lock for long: a split inserts
 * its children before locking, a child report writes its report row before locking.
 */
import { FwError } from '@fw/core';
import { ProcessErrorCodes, ProcessEvents, type Process, type SubProcessRequest } from '@fw/process-api';
import { eventNotAllowed, type ProcessFlow } from '../flow/process-flow';
import type { ProcessRepository } from '../repository/process-repository';
import { validateEventPayload } from './payload-validation';
import type { ProcessEngine } from './process-engine';
import type { ChildReportEvent, TxContext } from './process-engine-types';
import { loadProcess } from './process-loader';
import type { ProcessCallOptions } from './process-call-options';
import type { ProcessTransactionRunner } from './process-transaction-runner';

/** Events whose action creates children: their children are inserted before the parent is locked. */
const SPLIT_EVENTS: ReadonlySet<string> = new Set([ProcessEvents.splitPartiallyDone, ProcessEvents.splitDone]);

export interface ProcessEventSenderDeps {
  repo: Pick<ProcessRepository, 'findById'>;
  engine: Pick<ProcessEngine, 'insertChildrenEarly' | 'reportChildren' | 'applyEvents'>;
  transactions: Pick<ProcessTransactionRunner, 'run'>;
  flow: Promise<ProcessFlow>;
}

export class ProcessEventSender {
  constructor(private readonly deps: ProcessEventSenderDeps) {}

  /** Applies the event and returns the process as saved (422 when its state does not accept it). */
  async send(id: string, eventId: string, body: unknown, o: ProcessCallOptions | undefined): Promise<Process> {
    const { repo, engine } = this.deps;
    const flow = await this.deps.flow;
    return this.deps.transactions.run(async (ctx) => {
      const early = SPLIT_EVENTS.has(eventId) ? await this.splitBeforeLock(ctx, flow, id, eventId, body, o) : undefined;
      const isChildReport =
        eventId === ProcessEvents.subProcessDoneSuccessfully || eventId === ProcessEvents.subProcessDoneWithErrors;
      // A child report locks the parent itself, after its report row (see engine.reportChildren).
      const current = await loadProcess(repo, ctx.trx, id, o, !isChildReport);
      if (!flow.knownEvents().has(eventId)) {
        throw new FwError({
          code: 422,
          subErrorCode: ProcessErrorCodes.unknownEvent,
          description: `Unknown event '${eventId}'`,
          params: [eventId],
        });
      }
      if (!isChildReport && !flow.isAllowed(current.state, eventId)) throw eventNotAllowed(current.state, eventId);
      const payload = early?.payload ?? validateEventPayload(eventId, body);
      if (isChildReport)
        return (
          (await engine.reportChildren(ctx, current.id, [{ eventId, payload } as ChildReportEvent], 'external')) ??
          current
        );
      await engine.applyEvents(ctx, current, [{ eventId, payload }]);
      return current;
    });
  }

  /**
   * The first half of a split event: the parent read without a lock and, when its state accepts
   * the event, the children and their work items inserted (`engine.insertChildrenEarly`), so the
   * parent is locked only for the short rest of the transaction. Returns the payload, validated
   * once, which the event must then carry (the action recognises its children by it).
   */
  private async splitBeforeLock(
    ctx: TxContext,
    flow: ProcessFlow,
    id: string,
    eventId: string,
    body: unknown,
    o: ProcessCallOptions | undefined,
  ): Promise<{ payload: object } | undefined> {
    const parent = await loadProcess(this.deps.repo, ctx.trx, id, o, false);
    if (!flow.isAllowed(parent.state, eventId)) return undefined;
    const payload = validateEventPayload(eventId, body) as { subProcesses: readonly SubProcessRequest[] };
    await this.deps.engine.insertChildrenEarly(ctx, parent, payload.subProcesses);
    return { payload };
  }
}
