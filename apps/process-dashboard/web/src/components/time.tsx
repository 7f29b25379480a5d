/** Times: absolute in the browser's zone (ISO in the tooltip), durations. */

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString('en-GB', {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export function TimeText({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  return (
    <time dateTime={iso} title={iso}>
      {formatTime(iso)}
    </time>
  );
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}

/**
 * The part of an id that tells it apart from its neighbours in a table. A random id (version 4)
 * differs from its first characters on; a time-ordered one (version 7, the processes' ids) starts
 * with its creation time, the same for every id of one millisecond, and differs at its end; a
 * split child's id (version 8) starts with its parent's and differs in its position, the
 * characters after the version digit.
 */
export function shortId(id: string): string {
  if (id.length <= 13) return id;
  const version = id.charAt(14);
  if (version === '7') return `…${id.slice(-8)}`;
  if (version === '8') return `…${id.slice(15, 26)}…`;
  return `${id.slice(0, 8)}…`;
}
