import { heartbeatIntervalMillis, makeLeaseKeeper, type Claim } from '../src';

const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

/** Polls until `check` holds: timer-driven beats run late on a loaded machine, so no fixed sleeps. */
async function until(check: () => boolean, what: string, timeoutMillis = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe('heartbeatIntervalMillis', () => {
  it('is a third of the lease by default, the given interval, or none', () => {
    expect(heartbeatIntervalMillis(undefined, 300_000)).toBe(100_000);
    expect(heartbeatIntervalMillis(true, 12)).toBe(10);
    expect(heartbeatIntervalMillis({ intervalMillis: 250 }, 2000)).toBe(250);
    expect(heartbeatIntervalMillis(false, 2000)).toBeUndefined();
  });
});

describe('makeLeaseKeeper', () => {
  it('renews every held claim with one call per beat and stops when nothing is held', async () => {
    const calls: string[][] = [];
    const keeper = makeLeaseKeeper<Claim>({
      intervalMillis: 20,
      renew: async (claims) => {
        calls.push(claims.map((c) => c.id));
        return new Set(claims.map((c) => c.id));
      },
      onLost: () => undefined,
      onError: () => undefined,
    });
    keeper.hold([
      { id: 'a', claimToken: 't1' },
      { id: 'b', claimToken: 't2' },
    ]);
    await until(() => calls.length >= 2, 'two beats');
    expect(calls[0]).toEqual(['a', 'b']);
    await keeper.release([
      { id: 'a', claimToken: 't1' },
      { id: 'b', claimToken: 't2' },
    ]);
    const after = calls.length;
    await sleep(60);
    expect(calls.length).toBe(after);
    expect(keeper.size).toBe(0);
  });

  it('reports a claim the renewal did not find, once, and drops it', async () => {
    const lost: string[] = [];
    const keeper = makeLeaseKeeper<Claim>({
      intervalMillis: 15,
      renew: async (claims) => new Set(claims.filter((c) => c.id !== 'gone').map((c) => c.id)),
      onLost: (c) => lost.push(c.id),
      onError: () => undefined,
    });
    keeper.hold([
      { id: 'kept', claimToken: 'k' },
      { id: 'gone', claimToken: 'g' },
    ]);
    await until(() => lost.length > 0, 'the lost claim');
    await sleep(50); // more beats: the lost claim is not reported again
    expect(lost).toEqual(['gone']);
    expect(keeper.size).toBe(1);
    await keeper.release([{ id: 'kept', claimToken: 'k' }]);
  });

  it('does not call a claim lost that was released or claimed anew while the renewal ran', async () => {
    const lost: string[] = [];
    let finish: (ids: Set<string>) => void = () => undefined;
    let beats = 0;
    const keeper = makeLeaseKeeper<Claim>({
      intervalMillis: 10,
      renew: () => {
        beats++;
        return new Promise<Set<string>>((resolve) => (finish = resolve));
      },
      onLost: (c) => lost.push(c.id),
      onError: () => undefined,
    });
    keeper.hold([
      { id: 'a', claimToken: 'old' },
      { id: 'b', claimToken: 'b' },
    ]);
    await until(() => beats === 1, 'the first beat');
    await sleep(30);
    expect(beats).toBe(1); // no second beat while one is in flight
    keeper.hold([{ id: 'a', claimToken: 'new' }]); // claimed again with another token
    let released = false;
    const releasing = keeper.release([{ id: 'b', claimToken: 'b' }]).then(() => (released = true));
    await sleep(5);
    expect(released).toBe(false); // waits for the renewal that includes b
    finish(new Set());
    await releasing;
    expect(lost).toEqual([]);
    expect(keeper.size).toBe(1);
    await keeper.release([{ id: 'a', claimToken: 'new' }]);
  });

  it('keeps the claims after a failed beat and tries again', async () => {
    const errors: unknown[] = [];
    let beats = 0;
    const keeper = makeLeaseKeeper<Claim>({
      intervalMillis: 10,
      renew: async (claims) => {
        beats++;
        if (beats === 1) throw new Error('connection lost');
        return new Set(claims.map((c) => c.id));
      },
      onLost: () => undefined,
      onError: (err) => errors.push(err),
    });
    keeper.hold([{ id: 'a', claimToken: 't' }]);
    await until(() => beats >= 2, 'a beat after the failed one');
    expect(errors).toHaveLength(1);
    expect(keeper.size).toBe(1);
    await keeper.release([{ id: 'a', claimToken: 't' }]);
  });
});
