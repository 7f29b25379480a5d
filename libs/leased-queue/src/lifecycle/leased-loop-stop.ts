/**
 * The stop order of a leased loop. Claims end first (nothing new is taken), then the wake-up
 * source and retention (no sweep starts; the one in progress ends after its batch), then the work
 * in flight gets the rest of the time, and what is still unfinished is given back so that another
 * consumer claims it at once instead of after its lease.
 */
import type { PollLoop } from '../loop/poll-loop';
import type { RetentionSweeper } from '../retention/retention-sweeper';

/** Work a loop's turns launched and left running (the port `stop` drains and gives back). */
export interface BackgroundWork {
  /** Pieces of work in flight. */
  readonly size: number;
  /** Resolves when the work in flight now has ended. */
  settled(): Promise<unknown>;
  /** Aborts the work still in flight and gives back its claims; resolves how many it gave back. */
  abandon(): Promise<{ unfinished: number; released: number }>;
}

/** What a stop left behind. */
export interface LeasedLoopStopped {
  /** Background work that finished while stopping (0 without background work). */
  finished: number;
  /** Background work given back unfinished (0 without background work). */
  released: number;
}

/** What `stopLeasedLoop` stops. */
export interface LeasedLoopParts {
  loop: PollLoop;
  sweeper: RetentionSweeper | undefined;
  stopWakeSource(): Promise<void>;
  backgroundWork: BackgroundWork | undefined;
  timeoutMillis: number;
}

/** Resolves when `work` does or after `millis`, whichever comes first (the timer never outlives it). */
async function within(millis: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, millis);
    }),
  ]);
  clearTimeout(timer);
}

/** Stops the parts of a leased loop in order (see `LeasedLoop.stop`). */
export async function stopLeasedLoop(parts: LeasedLoopParts): Promise<LeasedLoopStopped> {
  const { loop, sweeper, backgroundWork: work, timeoutMillis } = parts;
  if (work === undefined) {
    // The last turn is the work: it and the sweep in progress share the timeout.
    await within(timeoutMillis, Promise.all([loop.stop().then(() => parts.stopWakeSource()), sweeper?.stop()]));
    return { finished: 0, released: 0 };
  }
  await loop.stop();
  await parts.stopWakeSource();
  // Awaited at the end, so that a sweep never delays what `stop` counts as finished.
  const sweeperStopped = sweeper?.stop();
  const before = work.size;
  await within(timeoutMillis, work.settled());
  const { unfinished, released } = await work.abandon();
  await sweeperStopped;
  return { finished: before - unfinished, released };
}
