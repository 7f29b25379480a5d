import { BENCHMARKS } from '../src/bench-registry';
import { formatRun, formatSummary, quantile } from '../src/fairness/fairness-bench';

describe('fairness bench', () => {
  it('is registered under its name', () => {
    expect(BENCHMARKS.fairness?.description).toMatch(/tenant big fans out N leaves/);
  });

  it('takes quantiles by the nearest rank', () => {
    const values = [0.4, 0.1, 0.3, 0.2, 1.0, 0.6, 0.5, 0.9, 0.8, 0.7];
    expect(quantile(values, 0.5)).toBe(0.5);
    expect(quantile(values, 0.95)).toBe(1.0);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('prints small’s latencies and big’s rate against its run alone', () => {
    const alone = { label: 'big alone', bigSeconds: 50, bigLeavesPerSecond: 2000, smallSeconds: [], loadAverage: 3.25 };
    const on = {
      label: 'fair on',
      bigSeconds: 55,
      bigLeavesPerSecond: 1800,
      smallSeconds: [0.5, 0.7, 2.5],
      loadAverage: 4,
    };
    expect(formatRun(alone, alone)).toBe('  big alone  big 50.0 s, 2000 leaves/s; load 3.3');
    expect(formatRun(on, alone)).toBe(
      '  fair on    small trigger→PROCESSED p50=0.70 s p95=2.50 s max=2.50 s; big 55.0 s, 1800 leaves/s (90 % of alone); load 4.0',
    );
  });

  it('sums rounds up by the medians of each kind of run', () => {
    const run = (label: string, rate: number, small: number[], load: number) => ({
      label,
      bigSeconds: 100_000 / rate,
      bigLeavesPerSecond: rate,
      smallSeconds: small,
      loadAverage: load,
    });
    const lines = formatSummary([
      run('big alone', 2000, [], 2),
      run('fair on', 1900, [0.4, 0.6, 0.9], 3),
      run('big alone', 1000, [], 5),
      run('fair on', 1100, [0.5, 0.8, 1.5], 6),
      run('big alone', 1800, [], 4),
      run('fair on', 1700, [0.3, 0.5, 0.7], 4),
    ]);
    expect(lines).toEqual([
      '  big alone  median of 3: big 1800 leaves/s; load 2.0–5.0',
      '  fair on    median of 3: small p50=0.60 s p95=0.90 s; big 1700 leaves/s (94 % of alone); load 3.0–6.0',
    ]);
  });
});
