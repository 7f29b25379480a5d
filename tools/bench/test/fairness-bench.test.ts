import { BENCHMARKS } from '../src/bench-registry';
import { formatRun, quantile } from '../src/fairness/fairness-bench';

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
    const alone = { label: 'big alone', bigSeconds: 50, bigLeavesPerSecond: 2000, smallSeconds: [] };
    const on = { label: 'fair on', bigSeconds: 55, bigLeavesPerSecond: 1800, smallSeconds: [0.5, 0.7, 2.5] };
    expect(formatRun(alone, alone)).toBe('  big alone  big 50.0 s, 2000 leaves/s');
    expect(formatRun(on, alone)).toBe(
      '  fair on    small trigger→PROCESSED p50=0.70 s p95=2.50 s max=2.50 s; big 55.0 s, 1800 leaves/s (90 % of alone)',
    );
  });
});
