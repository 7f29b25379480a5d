import { backoffMillis, DEFAULT_RECONNECT_DELAY, normalizeBackoff } from '../src/amqp/reconnect-backoff';

describe('reconnect backoff', () => {
  it('doubles from the base up to the cap, jittered into the upper half', () => {
    const delay = normalizeBackoff(undefined);
    expect(delay).toEqual({ baseMillis: 100, maxMillis: 5000 });
    const lowest = () => 0;
    const highest = () => 1;
    expect([1, 2, 3, 6, 7, 30, 2000].map((attempt) => backoffMillis(attempt, delay, highest))).toEqual([
      100, 200, 400, 3200, 5000, 5000, 5000,
    ]);
    expect([1, 2, 7, 2000].map((attempt) => backoffMillis(attempt, delay, lowest))).toEqual([50, 100, 2500, 2500]);
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      const millis = backoffMillis(attempt, DEFAULT_RECONNECT_DELAY);
      expect(millis).toBeGreaterThanOrEqual(Math.min(5000, 100 * 2 ** (attempt - 1)) / 2);
      expect(millis).toBeLessThanOrEqual(5000);
    }
  });

  it('never waits less than 1 ms and keeps the cap at or above the base', () => {
    expect(normalizeBackoff({ baseMillis: 0, maxMillis: 0 })).toEqual({ baseMillis: 1, maxMillis: 1 });
    expect(normalizeBackoff({ baseMillis: 2000 })).toEqual({ baseMillis: 2000, maxMillis: 5000 });
    expect(normalizeBackoff({ baseMillis: 9000 })).toEqual({ baseMillis: 9000, maxMillis: 9000 });
  });
});
