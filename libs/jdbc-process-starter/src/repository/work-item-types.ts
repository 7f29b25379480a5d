/** The work-item shapes the repository's parts share (apart, so they need not import the repository). */

/** A claimed item as the runner sees it. */
export interface ClaimedWorkItem {
  id: string;
  idempotencyKey: string;
  processId: string;
  processType: string;
  workerType: string;
  tenant: string | null;
  /** The WorkerDto as enqueued. */
  payload: unknown;
  /** Attempts made, this one included. */
  attempts: number;
  maxAttempts: number;
  lockedBy: string;
  lockedUntil: Date;
  /** Fences every write of this attempt. */
  claimToken: string;
  lastError: string | null;
  /** When the item became due (`run_at`; a retry moves it to the end of its backoff). */
  runAt: Date;
  /** True when this claim took the item over from a holder whose lease had expired. */
  leaseExpired: boolean;
}

export interface ClaimOptions {
  workerId: string;
  limit: number;
  leaseMillis: number;
  /** Only these process types (default: all). */
  processTypes?: readonly string[];
}

export interface EnqueueOptions {
  maxAttempts: number;
  /** Earliest claim (default now). */
  runAt?: Date;
}
