/** Asks for X-Fw-Info-Key after a 401. The value goes to memory (the connection state) only. */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useConnection } from '../../api/connection-context';

export function KeyPrompt() {
  const { keyRequested, connection, setInfoKey } = useConnection();
  const [value, setValue] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (keyRequested) input.current?.focus();
  }, [keyRequested]);
  if (!keyRequested) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim().length === 0) return;
    setInfoKey(value.trim());
    setValue('');
  };
  return (
    <section className="key-prompt" role="dialog" aria-modal="false" aria-labelledby="key-prompt-title">
      <form onSubmit={submit}>
        <h2 id="key-prompt-title">This host asks for an info key</h2>
        <p>
          {connection.infoKey ? 'The key given was refused. ' : ''}
          {connection.baseUrl ?? 'This host'} requires the <code>X-Fw-Info-Key</code> header (its{' '}
          <code>FW_INFO_ACCESS_KEY</code>). The key stays in this page's memory only: a reload forgets it.
        </p>
        <label htmlFor="info-key">Info key</label>
        <input
          id="info-key"
          ref={input}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" disabled={value.trim().length === 0}>
          Use key
        </button>
      </form>
    </section>
  );
}
