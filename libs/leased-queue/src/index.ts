export { makeLeasedQueue, nowPlusMillis, DEFAULT_LEASE_COLUMNS } from './queue/leased-queue';
export type {
  LeasedQueue,
  LeasedQueueSpec,
  LeasedQueueColumns,
  LeasedQueueStatuses,
  Claim,
  LeasedClaim,
  ClaimRequest,
  DeadOptions,
} from './queue/leased-queue';
export type { LeaseColumnsTable } from './queue/lease-columns-table';
export { makeLeaseKeeper, heartbeatIntervalMillis } from './lease/lease-keeper';
export type { LeaseKeeper, LeaseKeeperOptions } from './lease/lease-keeper';
export { makePollLoop } from './loop/poll-loop';
export type { PollLoop, PollLoopOptions } from './loop/poll-loop';
export { exponentialBackoff } from './retry/backoff';
export type { BackoffPolicy, ExponentialBackoffOptions } from './retry/backoff';
export { coalesce } from './ack/coalesce';
