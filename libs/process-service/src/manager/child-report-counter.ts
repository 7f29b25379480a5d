/**
 * Counts finished children on their parent exactly once, whether the report comes from the
 * child's own completion, an outbox CHILD_COMPLETED command or an HTTP caller. The report rows are
 * the once-only guard, so they are written before the parent's lock on every path.
 */
import { FwError, type Logger } from '@fw/core';
import { ProcessErrorCodes, ProcessEvents, type Process } from '@fw/process-api';
import { eventNotAllowed } from '../flow/process-flow';
import type { ProcessRepository } from '../repository/process-repository';
import type { EventApplier } from './event-applier';
import { notFound, type ChildReportEvent, type TxContext } from './process-engine-types';

export interface ChildReportCounterDeps {
  repo: Pick<ProcessRepository, 'findParents' | 'insertChildReports' | 'deleteChildReports' | 'findById'>;
  logger: Logger;
  applier: Pick<EventApplier, 'applyEvents'>;
}

export class ChildReportCounter {
  constructor(private readonly deps: ChildReportCounterDeps) {}

  /**
   * Counts children's completions on their parent exactly once: the child report rows are inserted
   * in one statement (a report already there conflicts and counts nothing), then the parent is
   * locked and only the new reports are applied (in order) before the parent is saved once. The
   * reports come before the parent's lock, on every path, so the lock that every counting
   * transaction of a fan-out waits for is held only for the counting itself and the commit (and
   * two reporters of one child always take the two in the same order). `external` reports (an
   * HTTP caller) are checked to be children of the parent and refused with 422, rolling back their
   * rows, when the parent's state does not accept them; internal reports a parent no longer
   * accepts are removed again and not counted.
   */
  async reportChildren(
    ctx: TxContext,
    parentId: string,
    given: readonly ChildReportEvent[],
    external: boolean,
  ): Promise<Process | undefined> {
    const { repo, logger } = this.deps;
    const reports = [...new Map(given.map((r) => [r.payload.childId, r] as const)).values()];
    if (external)
      await this.assertChildrenOf(
        ctx,
        parentId,
        reports.map((r) => r.payload.childId),
      );
    const fresh = await repo.insertChildReports(
      ctx.trx,
      reports.map((r) => ({
        childId: r.payload.childId,
        parentId,
        successful: r.eventId === ProcessEvents.subProcessDoneSuccessfully,
        time: ctx.now,
      })),
    );
    const parent = await repo.findById(ctx.trx, parentId, { forUpdate: true });
    if (!parent) {
      if (external) throw notFound(parentId);
      await repo.deleteChildReports(ctx.trx, [...fresh]);
      logger.warn({ parentId, children: reports.length }, 'parent of a completed child not found');
      return undefined;
    }
    if (!external && !reports.every((r) => ctx.flow.isAllowed(parent.state, r.eventId))) {
      await repo.deleteChildReports(ctx.trx, [...fresh]);
      logger.warn(
        { parentId, parentState: parent.state.stateId, children: reports.length },
        'parent does not accept child reports in its state; not counted',
      );
      return parent;
    }
    const counted = reports.filter((r) => fresh.has(r.payload.childId));
    if (counted.length === 0) return parent;
    for (const r of counted)
      if (!ctx.flow.isAllowed(parent.state, r.eventId)) throw eventNotAllowed(parent.state, r.eventId);
    await this.deps.applier.applyEvents(ctx, parent, counted);
    return parent;
  }

  /** 400 when one of `childIds` is not a child of `parentId` (no lock taken; the caller has read the parent). */
  private async assertChildrenOf(ctx: TxContext, parentId: string, childIds: readonly string[]): Promise<void> {
    const parents = await this.deps.repo.findParents(ctx.trx, childIds);
    const stranger = childIds.find((id) => parents.get(id) !== parentId);
    if (stranger !== undefined) {
      throw new FwError({
        code: 400,
        subErrorCode: ProcessErrorCodes.notAChild,
        description: `Process ${stranger} is not a child of ${parentId}`,
        params: [stranger, parentId],
        field: 'childId',
      });
    }
  }
}
