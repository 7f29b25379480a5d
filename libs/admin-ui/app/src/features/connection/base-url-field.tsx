/**
 * Which host to read: this one (empty) or another base URL, read through the proxy of the host that
 * serves the UI (it must list that origin in `proxyAllowedOrigins`).
 */
import { useState, type FormEvent } from 'react';
import { useConnection } from '../../api/connection-context';

export function normalizeBaseUrl(input: string): string | null | Error {
  const trimmed = input.trim();
  if (trimmed.length === 0) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return new Error('Enter a URL such as http://host:8080, or leave it empty for this host');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return new Error('Use an http or https URL');
  if (url.origin === window.location.origin && (url.pathname === '/' || url.pathname === '')) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function BaseUrlField() {
  const { connection, setBaseUrl } = useConnection();
  const [value, setValue] = useState(connection.baseUrl ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = normalizeBaseUrl(value);
    if (next instanceof Error) {
      setProblem(next.message);
      return;
    }
    setProblem(null);
    setValue(next ?? '');
    setBaseUrl(next);
  };
  return (
    <form className="base-url" onSubmit={submit} aria-label="Host to read">
      <label htmlFor="base-url">Base URL</label>
      <input
        id="base-url"
        type="url"
        placeholder="this host"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        aria-invalid={problem !== null}
        aria-describedby={problem ? 'base-url-problem' : undefined}
      />
      <button type="submit">Read</button>
      {problem && (
        <span id="base-url-problem" className="field-problem" role="alert">
          {problem}
        </span>
      )}
    </form>
  );
}
