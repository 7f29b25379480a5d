import { timeOrderedUuid } from '@fw/core';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The milliseconds an id carries in its first 48 bits. */
const millisOf = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

describe('timeOrderedUuid', () => {
  it('makes version-7 UUIDs whose first 48 bits are the time of their making', () => {
    const before = Date.now();
    const ids = Array.from({ length: 1000 }, () => timeOrderedUuid());
    const after = Date.now();
    for (const id of ids) {
      expect(id).toMatch(V7);
      expect(millisOf(id)).toBeGreaterThanOrEqual(before);
      expect(millisOf(id)).toBeLessThanOrEqual(after);
    }
  });

  it('never repeats itself, also within one millisecond', () => {
    const ids = Array.from({ length: 200_000 }, () => timeOrderedUuid());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts ids of later milliseconds after earlier ones, as text (PostgreSQL orders uuids byte by byte, the same order)', async () => {
    const first = timeOrderedUuid();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = timeOrderedUuid();
    expect(millisOf(second)).toBeGreaterThan(millisOf(first));
    expect(first < second).toBe(true);
  });
});
