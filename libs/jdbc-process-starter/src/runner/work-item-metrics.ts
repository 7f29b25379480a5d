/**
 * The runner's fw_* series, recorded from its item events: the wait of a claimed item (due →
 * claimed), the lease expiries it took over, each attempt's result and the refused
 * acknowledgements. In memory only; without `metrics` nothing is wrapped.
 */
import type { FwMetrics, WorkItemLabels } from '@fw/telemetry';
import type { ClaimedWorkItem } from '../repository/work-item-types';
import type { WorkItemRunnerEventType } from './work-item-runner-types';

/** Records one item event; the runner calls it next to `itemEvent`. */
export type WorkItemEventRecorder = (type: WorkItemRunnerEventType, item: ClaimedWorkItem) => void;

const labelsOf = (item: ClaimedWorkItem): WorkItemLabels => ({
  tenant: item.tenant,
  processType: item.processType,
  workerType: item.workerType,
});

/**
 * Seconds from the item being due to its claim, both on the database clock: the claim set
 * `locked_until` to its `now()` plus the lease.
 */
export function waitSecondsOf(item: ClaimedWorkItem, leaseMillis: number): number {
  const claimedAt = item.lockedUntil.getTime() - leaseMillis;
  return Math.max(0, (claimedAt - item.runAt.getTime()) / 1000);
}

/**
 * The recorder of `metrics`, or undefined without metrics. A claimed item taken over from an
 * expired lease counts in `fw_lease_expiries_total` instead of the wait histogram (its `run_at`
 * is when its first holder could start, not when it became claimable again).
 */
export function makeWorkItemEventRecorder(
  metrics: FwMetrics | undefined,
  leaseMillis: number,
): WorkItemEventRecorder | undefined {
  if (metrics === undefined) return undefined;
  // Items arrive in batches of one series: workItemSeries answers those from its last labels.
  return (type, item) => {
    switch (type) {
      case 'claimed':
        if (item.leaseExpired) metrics.leaseExpired(labelsOf(item));
        else metrics.workItemSeries(item).claimed(waitSecondsOf(item, leaseMillis));
        return;
      case 'completed':
        return metrics.workItemSeries(item).attempt('success');
      case 'retried':
        return metrics.workItemSeries(item).attempt('retry');
      case 'dead':
        return metrics.workItemSeries(item).attempt('dead');
      case 'stale-ack':
        return metrics.staleAck(labelsOf(item));
      default:
        return;
    }
  };
}
