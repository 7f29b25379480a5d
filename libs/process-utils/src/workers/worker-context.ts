/**
 * What author code receives besides its typed input. The batch service runs author code inside
 * `@fw/core`'s `runWithContext`, so `currentTenantId()` answers `tenant` there too.
 *
 * @example
 * execute(input: Input, ctx: WorkerContext) {
 *   const size = Number(ctx.config.batchSize ?? '100');
 *   await ctx.reportProgress(50);
 * }
 */
import type { WorkerType } from '@fw/process-api';

export interface WorkerContext {
  readonly processId: string;
  readonly processType: string;
  readonly workerType: WorkerType;
  /** Tenant of the process (inherited from the root, parent or predecessor), or null. */
  readonly tenant: string | null;
  readonly triggerId: string | null;
  readonly parentId: string | null;
  /** A copy of the definition's config map (changing it changes nothing else). */
  readonly config: Readonly<Record<string, string>>;
  /** Sends `statusUpdate { percentComplete }` to the process (0..100). */
  reportProgress(percentComplete: number): Promise<void>;
  /**
   * Aborted when the result can no longer count: the runner stops and gave up waiting, or the
   * lease was lost. Long steps pass it on (`fetch(url, { signal })`) or check it, so a stopping
   * host is not kept alive by work that will be redone elsewhere.
   */
  readonly signal: AbortSignal;
  /** This attempt's number (1 for the first) and how many there are in all (1 when the launch mode does not retry). */
  readonly attempt: number;
  readonly maxAttempts: number;
}
