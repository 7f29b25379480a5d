import { DEFAULT_RETENTION_MILLIS, makeRetentionSweeper } from '../src';

const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

/** Waits until `done()` holds (a loaded CI machine may take longer than any fixed sleep), at most 5 s. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!done() && Date.now() < deadline) await sleep(5);
}

describe('makeRetentionSweeper', () => {
  it('keeps finished rows 7 days by default', () => {
    expect(DEFAULT_RETENTION_MILLIS).toBe(604_800_000);
  });

  it('sweeps at the first poke, in batches until one comes back short, then not again before the interval', async () => {
    let backlog = 25;
    const limits: number[] = [];
    const purged: number[] = [];
    const sweeper = makeRetentionSweeper({
      intervalMillis: 1_000,
      batchSize: 10,
      purge: async (limit) => {
        limits.push(limit);
        const n = Math.min(limit, backlog);
        backlog -= n;
        return n;
      },
      onPurged: (rows) => purged.push(rows),
      onError: () => undefined,
    });
    sweeper.poke();
    sweeper.poke(); // one sweep at a time
    await until(() => purged.length === 1);
    expect(limits).toEqual([10, 10, 10]);
    expect(purged).toEqual([25]);
    backlog = 3;
    sweeper.poke(); // too early: well within the interval
    await sleep(50);
    expect(limits).toHaveLength(3);
    await sleep(1_000);
    sweeper.poke();
    await until(() => purged.length === 2);
    expect(limits).toHaveLength(4);
    expect(purged).toEqual([25, 3]);
    await sweeper.stop();
  });

  it('reports a failed batch and sweeps again after the interval; stop ends after the batch in progress', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    let release: () => void = () => undefined;
    const sweeper = makeRetentionSweeper({
      intervalMillis: 0,
      batchSize: 1,
      purge: async () => {
        calls++;
        if (calls === 1) throw new Error('database down');
        await new Promise<void>((resolve) => (release = resolve));
        return 1; // a full batch: would go on, but stop comes first
      },
      onError: (err) => errors.push(err),
    });
    sweeper.poke();
    await until(() => errors.length === 1);
    expect(errors).toHaveLength(1);
    sweeper.poke();
    await until(() => calls === 2);
    expect(calls).toBe(2);
    const stopped = sweeper.stop();
    release();
    await stopped;
    expect(calls).toBe(2);
    sweeper.poke();
    expect(await sweeper.sweep()).toBe(0);
    expect(calls).toBe(2);
  });
});
