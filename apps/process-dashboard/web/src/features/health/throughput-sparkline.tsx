/**
 * The throughput of one process type as a small bar chart: one bar per 5-minute bucket, oldest
 * on the left, the finished processes stacked as succeeded (below) and failed (above). The SVG is
 * an image with a text alternative listing the counts, so a screen reader hears the same figures.
 */
import type { HealthBucket } from '../../api/types';

const WIDTH = 120;
const HEIGHT = 24;
const GAP = 1;

/** The chart's text alternative: totals, then the counts per bucket, oldest first. */
export function describeThroughput(buckets: readonly HealthBucket[], bucketMinutes: number): string {
  const succeeded = buckets.reduce((sum, b) => sum + b.succeeded, 0);
  const failed = buckets.reduce((sum, b) => sum + b.failed, 0);
  const counts = buckets.map((b) => (b.failed > 0 ? `${b.succeeded}+${b.failed} failed` : String(b.succeeded)));
  return `${succeeded} succeeded, ${failed} failed in the last ${buckets.length * bucketMinutes} minutes; per ${bucketMinutes} minutes, oldest first: ${counts.join(', ')}`;
}

export function ThroughputSparkline({
  buckets,
  bucketMinutes,
}: {
  buckets: readonly HealthBucket[];
  bucketMinutes: number;
}) {
  const highest = Math.max(1, ...buckets.map((b) => b.succeeded + b.failed));
  const barWidth = buckets.length === 0 ? 0 : WIDTH / buckets.length - GAP;
  const scale = (n: number) => (n / highest) * (HEIGHT - 1);
  return (
    <svg
      className="sparkline"
      role="img"
      aria-label={describeThroughput(buckets, bucketMinutes)}
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
    >
      <line className="sparkline-base" x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
      {buckets.map((b, i) => {
        const x = i * (barWidth + GAP);
        const ok = scale(b.succeeded);
        const bad = scale(b.failed);
        return (
          <g key={b.start}>
            {b.succeeded > 0 && <rect className="sparkline-ok" x={x} y={HEIGHT - ok} width={barWidth} height={ok} />}
            {b.failed > 0 && (
              <rect className="sparkline-bad" x={x} y={HEIGHT - ok - bad} width={barWidth} height={bad} />
            )}
          </g>
        );
      })}
    </svg>
  );
}
