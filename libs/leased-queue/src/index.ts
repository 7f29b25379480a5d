export { makeLeasedQueue, nowPlusMillis, leasedClaimOf, DEFAULT_LEASE_COLUMNS } from './queue/leased-queue';
export type {
  LeasedQueue,
  LeasedQueueSpec,
  LeasedQueueColumns,
  LeasedQueueStatuses,
  Claim,
  LeasedClaim,
  LeaseFields,
  ClaimRequest,
  DeadOptions,
  PurgeRequest,
  DependentRows,
} from './queue/leased-queue';
export type { LeaseColumnsTable } from './queue/lease-columns-table';
export { makeLeaseKeeper, heartbeatIntervalMillis } from './lease/lease-keeper';
export type { LeaseKeeper, LeaseKeeperOptions } from './lease/lease-keeper';
export { makePollLoop } from './loop/poll-loop';
export type { PollLoop, PollLoopOptions } from './loop/poll-loop';
export {
  makeRetentionSweeper,
  DEFAULT_RETENTION_MILLIS,
  DEFAULT_RETENTION_INTERVAL_MILLIS,
  DEFAULT_RETENTION_BATCH_SIZE,
} from './retention/retention-sweeper';
export type { RetentionSweeper, RetentionSweeperOptions } from './retention/retention-sweeper';
export { exponentialBackoff } from './retry/backoff';
export type { BackoffPolicy, ExponentialBackoffOptions } from './retry/backoff';
export { coalesce } from './ack/coalesce';
export { makeOutageTracker, isConnectionError } from './outage/outage-tracker';
export type { OutageTracker, OutageTrackerOptions, OutageReport } from './outage/outage-tracker';
export { makeLeasedLoop } from './lifecycle/leased-loop';
export type {
  LeasedLoop,
  LeasedLoopOptions,
  LeasedLoopLogger,
  LeasedLoopHeartbeat,
  LeasedLoopRetention,
  LeasedLoopWakeSource,
} from './lifecycle/leased-loop';
export type { BackgroundWork, LeasedLoopStopped } from './lifecycle/leased-loop-stop';
export { makeExpiredLeaseScan } from './queue/expired-lease-scan';
export type { ExpiredLeaseScan, ExpiredLeaseScanSpec, ExpiredLeaseScanRequest } from './queue/expired-lease-scan';
