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

/** A split child's id: the parent's first 48 bits, version 8, then the position around the variant. */
const CHILD_ID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-8([0-9a-f])([0-9a-f]{2})-([89ab][0-9a-f])([0-9a-f]{2})-([0-9a-f]{2})[0-9a-f]{10}$/i;

/**
 * The position of a split child in its split (0 for the first), read back from its id, or
 * undefined when the id is not of that layout. The 32 bits of the position sit, most significant
 * first, in the 4 bits after the version digit, the next byte, the 6 bits after the variant, the
 * next byte and the top 6 bits of the byte after that (its last 2 bits are the parent's hash).
 */
export function childPositionOf(id: string): number | undefined {
  const m = CHILD_ID.exec(id);
  if (!m) return undefined;
  const [nibble, byte7, variantByte, byte9, byte10] = m.slice(1).map((hex) => parseInt(hex, 16));
  return nibble * 2 ** 28 + byte7 * 2 ** 20 + (variantByte & 0x3f) * 2 ** 14 + byte9 * 2 ** 6 + (byte10 >> 2);
}

/**
 * The part of an id that tells it apart from its neighbours in a table. A random id (version 4)
 * differs from its first characters on; a time-ordered one (version 7, the processes' ids) starts
 * with its creation time, the same for every id of one millisecond, and differs at its end; a
 * split child's id (version 8) is shown as its position in the split and the end of its id, which
 * its siblings share (it comes from a hash of the parent): `#0…0a44`, `#1…0a44`.
 */
export function shortId(id: string): string {
  if (id.length <= 13) return id;
  const version = id.charAt(14);
  if (version === '7') return `…${id.slice(-8)}`;
  const position = version === '8' ? childPositionOf(id) : undefined;
  if (position !== undefined) return `#${position}…${id.slice(-4)}`;
  return `${id.slice(0, 8)}…`;
}
