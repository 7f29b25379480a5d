/**
 * Test support: a recording dispatch (a real TriggerDispatch that keeps every dto it got and can
 * be slowed down or made to fail) and a polling wait with generous limits for loaded machines.
 */
import type { TriggerDispatch, TriggerDispatchDto, TriggerInput, TriggerResult, TriggerService } from '@fw/trigger';

export interface RecordingDispatch {
  dispatch: TriggerDispatch;
  readonly calls: TriggerDispatchDto[];
  /** Runs inside every dispatch (before it returns); throw to fail the dispatch. */
  behaviour?: (dto: TriggerDispatchDto) => Promise<void> | void;
}

export function makeRecordingDispatch(): RecordingDispatch {
  let n = 0;
  const recorder: RecordingDispatch = {
    calls: [],
    dispatch: async (dto) => {
      recorder.calls.push(dto);
      await recorder.behaviour?.(dto);
      n += 1;
      return { processId: `p-${n}` };
    },
  };
  return recorder;
}

/** Waits until `check` returns true (polling), failing after `timeoutMillis` with `what`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMillis = 10_000,
  pollMillis = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMillis} ms waiting for ${what}`);
    await sleep(pollMillis);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A trigger service wrapper that counts the trigger() calls made through it, per trigger id. */
export interface CountingTriggers extends Pick<TriggerService, 'trigger'> {
  readonly calls: TriggerInput[];
}

export function countingTriggers(inner: Pick<TriggerService, 'trigger'>): CountingTriggers {
  const calls: TriggerInput[] = [];
  return {
    calls,
    trigger(input): Promise<TriggerResult> {
      calls.push(input);
      return inner.trigger(input);
    },
  };
}

let unique = 0;
/** A fresh tenant name per test, so tests in one database never see each other's rows. */
export function freshTenant(prefix = 't'): string {
  unique += 1;
  return `${prefix}${unique}-${Math.random().toString(36).slice(2, 8)}`;
}
