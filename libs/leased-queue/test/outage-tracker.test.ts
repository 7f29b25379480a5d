import { isConnectionError, makeOutageTracker, type OutageReport } from '@fw/leased-queue';

describe('makeOutageTracker', () => {
  it('reports an outage once when it starts and once when it ends, with its length and failed attempts', () => {
    let now = 1000;
    const lost: unknown[] = [];
    const back: OutageReport[] = [];
    const outage = makeOutageTracker({ onLost: (e) => lost.push(e), onBack: (r) => back.push(r), clock: () => now });
    outage.succeeded();
    expect(back).toEqual([]);
    for (let i = 0; i < 44; i++) {
      outage.failed(new Error(`poll ${i}`));
      now += 70;
    }
    expect(lost).toEqual([new Error('poll 0')]);
    expect(outage.down).toBe(true);
    outage.succeeded();
    outage.succeeded();
    expect(back).toEqual([{ millis: 44 * 70, failures: 44 }]);
    expect(outage.down).toBe(false);
    outage.failed('again');
    now += 5;
    outage.succeeded();
    expect(lost).toEqual([new Error('poll 0'), 'again']);
    expect(back).toEqual([
      { millis: 44 * 70, failures: 44 },
      { millis: 5, failures: 1 },
    ]);
  });
});

describe('makeOutageTracker with isOutage', () => {
  it('leaves failures that are no outage to the caller, uncounted', () => {
    const lost: unknown[] = [];
    const back: OutageReport[] = [];
    const outage = makeOutageTracker({
      onLost: (e) => lost.push(e),
      onBack: (r) => back.push(r),
      isOutage: isConnectionError,
      clock: () => 0,
    });
    expect(outage.failed(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(outage.down).toBe(false);
    expect(outage.failed(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(outage.failed(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(true);
    outage.succeeded();
    expect(lost).toHaveLength(1);
    expect(back).toEqual([{ millis: 0, failures: 2 }]);
  });
});

describe('isConnectionError', () => {
  it('tells a lost connection from a failed statement', () => {
    const errno = (code: string) => Object.assign(new Error(`connect ${code}`), { code });
    for (const e of [
      errno('ECONNREFUSED'),
      errno('ECONNRESET'),
      errno('57P01'),
      errno('08006'),
      new Error('Connection terminated unexpectedly'),
    ])
      expect(isConnectionError(e)).toBe(true);
    for (const e of [errno('23505'), errno('40001'), new Error('relation "x" does not exist'), 'text', null])
      expect(isConnectionError(e)).toBe(false);
  });
});
