import { coalesce, exponentialBackoff, makePollLoop } from '../src';

const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

/** Polls until `check` holds: a loaded CI machine runs timers late, so no fixed sleeps before asserting. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

describe('makePollLoop', () => {
  it('turns once per poll interval when idle, at once after a wake-up, and back to back while turns ask for more', async () => {
    let turns = 0;
    let more = 0;
    const loop = makePollLoop({
      pollIntervalMillis: 60_000,
      turn: async () => {
        turns++;
        return more-- > 0;
      },
    });
    loop.start();
    loop.start(); // idempotent
    await until(() => turns === 1, 'the first turn');
    await sleep(20);
    expect(turns).toBe(1); // idle: the next turn waits for the poll interval
    loop.wake();
    await until(() => turns === 2, 'the turn after wake()');
    more = 3;
    loop.wake();
    await until(() => turns >= 6, 'the turns asking for more');
    await sleep(20);
    expect(turns).toBe(6); // three full turns, then one that came back short
    await loop.stop();
    expect(loop.stopping).toBe(true);
  });

  it('keeps a wake-up that arrives during a turn, so the next pause ends at once', async () => {
    let turns = 0;
    const loop = makePollLoop({
      pollIntervalMillis: 60_000,
      turn: async () => {
        turns++;
        if (turns === 1) {
          loop.wake();
          await sleep(5);
        }
        return false;
      },
    });
    loop.start();
    await until(() => turns >= 2, 'the turn after the kept wake-up');
    await sleep(20);
    expect(turns).toBe(2);
    await loop.stop();
  });

  it('hands the pause length to afterPause, survives a rejected turn and stops after the turn in progress', async () => {
    const paused: number[] = [];
    const errors: unknown[] = [];
    let turns = 0;
    const loop = makePollLoop({
      pollIntervalMillis: 10,
      turn: async () => {
        turns++;
        if (turns === 1) throw new Error('boom');
        return false;
      },
      afterPause: async (millis) => void paused.push(millis),
      onError: (err) => errors.push(err),
    });
    loop.start();
    await until(() => paused.length >= 2, 'two pauses');
    await loop.stop();
    const after = turns;
    await sleep(30);
    expect(turns).toBe(after);
    expect(errors).toHaveLength(1);
    expect(paused.length).toBeGreaterThanOrEqual(2);
    expect(paused[0]).toBeGreaterThanOrEqual(9);
  });
});

describe('coalesce', () => {
  it('flushes the calls of one event-loop turn together and answers each', async () => {
    const flushes: number[][] = [];
    const double = coalesce(async (inputs: number[]) => {
      flushes.push(inputs);
      return inputs.map((n) => n * 2);
    });
    expect(await Promise.all([double(1), double(2), double(3)])).toEqual([2, 4, 6]);
    expect(await double(4)).toBe(8);
    expect(flushes).toEqual([[1, 2, 3], [4]]);
  });
});

describe('exponentialBackoff', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 60].map(exponentialBackoff({ baseMillis: 100, maxMillis: 1000 }))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });
});
