/** The log as it streams in: a live region that keeps its last line in view. */
import { useEffect, useRef } from 'react';

export function LogView({ lines }: { lines: string[] }) {
  const pre = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (pre.current) pre.current.scrollTop = pre.current.scrollHeight;
  }, [lines]);
  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title">Log</h2>
      <pre id="log" ref={pre} className="log" role="log" aria-labelledby="log-title" tabIndex={0}>
        {lines.length > 0 ? lines.join('\n') + '\n' : ''}
      </pre>
    </section>
  );
}
