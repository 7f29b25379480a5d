/**
 * A Mermaid diagram rendered in the browser. Mermaid is large, so it is loaded on first use only
 * (its own chunks); the rest of the UI never waits for it.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTheme } from '../theme/theme';

type MermaidApi = (typeof import('mermaid'))['default'];
let loading: Promise<MermaidApi> | undefined;

function loadMermaid(): Promise<MermaidApi> {
  loading ??= import('mermaid').then((m) => m.default);
  return loading;
}

export function MermaidDiagram({ text, label }: { text: string; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const id = `mermaid-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const { resolved } = useTheme();
  const [state, setState] = useState<'loading' | 'ready' | Error>('loading');
  useEffect(() => {
    let cancelled = false;
    setState('loading');
    loadMermaid()
      .then(async (mermaid) => {
        mermaid.initialize({
          startOnLoad: false,
          securityLevel: 'strict',
          theme: resolved === 'dark' ? 'dark' : 'default',
        });
        const { svg } = await mermaid.render(id, text);
        if (cancelled || !host.current) return;
        host.current.innerHTML = svg;
        setState('ready');
      })
      .catch((err: unknown) => {
        if (!cancelled) setState(err instanceof Error ? err : new Error(String(err)));
      });
    return () => {
      cancelled = true;
    };
  }, [id, text, resolved]);
  return (
    <figure className="diagram">
      {state === 'loading' && (
        <p className="loading" role="status">
          Drawing the diagram…
        </p>
      )}
      {state instanceof Error && (
        <p className="error" role="alert">
          The diagram could not be drawn: {state.message}
        </p>
      )}
      <div
        ref={host}
        role="img"
        aria-label={label}
        data-state={state instanceof Error ? 'error' : state}
        className="diagram-svg"
      />
      <figcaption>
        <details>
          <summary>Mermaid source</summary>
          <pre>{text}</pre>
        </details>
      </figcaption>
    </figure>
  );
}
