/** A JSON value shown folded past a few lines. */

export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  if (value === undefined || value === null) return <p className="muted">{label}: none</p>;
  const text = JSON.stringify(value, null, 2);
  const lines = text.split('\n').length;
  const pre = (
    <pre className="json" tabIndex={0} aria-label={`${label} (JSON)`}>
      {text}
    </pre>
  );
  if (lines <= 12) return pre;
  return (
    <details>
      <summary>
        {label} ({lines} lines)
      </summary>
      {pre}
    </details>
  );
}
