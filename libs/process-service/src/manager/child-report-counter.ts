/**
 * Counts finished children on their parent exactly once, whether the report comes from the
 * child's own completion (inline), an outbox CHILD_COMPLETED command or an HTTP caller. What
 * records a count is either a report row (command, HTTP) or the child's `counted_inline` mark
 * (inline, set by the save of its terminal state), never both; both are written before the
 * parent's lock on every path.
 */
import { FwError, type Logger } from '@fw/core';
import { ProcessErrorCodes, ProcessEvents, type Process } from '@fw/process-api';
import { eventNotAllowed } from '../flow/process-flow';
import type { ProcessRepository } from '../repository/process-repository';
import type { EventApplier } from './event-applier';
import { notFound, type ChildReportEvent, type ChildReportSource, type TxContext } from './process-engine-types';

export interface ChildReportCounterDeps {
  repo: Pick<
    ProcessRepository,
    | 'lockChildren'
    | 'insertChildReports'
    | 'deleteChildReports'
    | 'findReportedChildren'
    | 'clearCountedInline'
    | 'findById'
  >;
  logger: Logger;
  applier: Pick<EventApplier, 'applyEvents'>;
}

export class ChildReportCounter {
  constructor(private readonly deps: ChildReportCounterDeps) {}

  /**
   * Counts children's completions on their parent exactly once: the reports already counted are
   * found first (see {@link ChildReportSource}), then the parent is locked and only the new
   * reports are applied (in order) before the parent is saved once. The reports' records come
   * before the parent's lock, on every path, so the lock that every counting transaction of a
   * fan-out waits for is held only for the counting itself and the commit (and two reporters of
   * one child always take the two in the same order). `external` reports are checked to be
   * children of the parent and refused with 422, rolling back their rows, when the parent's state
   * does not accept them; internal reports a parent no longer accepts are not counted, and their
   * records are removed again.
   */
  async reportChildren(
    ctx: TxContext,
    parentId: string,
    given: readonly ChildReportEvent[],
    source: ChildReportSource,
  ): Promise<Process | undefined> {
    const { repo, logger } = this.deps;
    const external = source === 'external';
    const reports = [...new Map(given.map((r) => [r.payload.childId, r] as const)).values()];
    const fresh = await this.recordReports(ctx, parentId, reports, source);
    const parent = await repo.findById(ctx.trx, parentId, { forUpdate: true });
    if (!parent) {
      if (external) throw notFound(parentId);
      await this.forget(ctx, fresh, source);
      logger.warn({ parentId, children: reports.length }, 'parent of a completed child not found');
      return undefined;
    }
    if (!external && !reports.every((r) => ctx.flow.isAllowed(parent.state, r.eventId))) {
      await this.forget(ctx, fresh, source);
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

  /**
   * Records the reports before the parent's lock and returns the children to count now:
   * - inline, the children were marked by the save of their terminal state in this transaction;
   *   a child with a report row was counted by another route first, and loses its mark;
   * - from a command, the report rows are inserted, and those that were there count nothing;
   * - from an HTTP caller, the children are locked and checked to be the parent's; a child counted
   *   inline counts nothing, the others as from a command.
   */
  private async recordReports(
    ctx: TxContext,
    parentId: string,
    reports: readonly ChildReportEvent[],
    source: ChildReportSource,
  ): Promise<Set<string>> {
    const { repo } = this.deps;
    const childIds = reports.map((r) => r.payload.childId);
    if (source === 'inline') {
      const reported = await repo.findReportedChildren(ctx.trx, childIds);
      if (reported.size > 0) await repo.clearCountedInline(ctx.trx, [...reported]);
      return new Set(childIds.filter((id) => !reported.has(id)));
    }
    let rowed = reports;
    if (source === 'external') {
      const children = await repo.lockChildren(ctx.trx, childIds);
      const stranger = childIds.find((id) => children.get(id)?.parentId !== parentId);
      if (stranger !== undefined) throw notAChild(stranger, parentId);
      rowed = reports.filter((r) => children.get(r.payload.childId)?.countedInline !== true);
    }
    return repo.insertChildReports(
      ctx.trx,
      rowed.map((r) => ({
        childId: r.payload.childId,
        parentId,
        successful: r.eventId === ProcessEvents.subProcessDoneSuccessfully,
        time: ctx.now,
      })),
    );
  }

  /** Removes the records of reports that were not counted after all (the parent refused or vanished). */
  private async forget(ctx: TxContext, fresh: ReadonlySet<string>, source: ChildReportSource): Promise<void> {
    if (source === 'inline') await this.deps.repo.clearCountedInline(ctx.trx, [...fresh]);
    else await this.deps.repo.deleteChildReports(ctx.trx, [...fresh]);
  }
}

function notAChild(childId: string, parentId: string): FwError {
  return new FwError({
    code: 400,
    subErrorCode: ProcessErrorCodes.notAChild,
    description: `Process ${childId} is not a child of ${parentId}`,
    params: [childId, parentId],
    field: 'childId',
  });
}
