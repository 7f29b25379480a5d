/**
 * The sign-in form: the administration key and the tenant. The key is checked with GET /info
 * before the session starts; a refused key keeps the user here with a clear message.
 */
import { useState, type FormEvent } from 'react';
import { createApiClient, isApiError } from '../../api/client';
import { TENANT_PATTERN, useSession } from './session';

export interface SignInFormProps {
  /** The tenant of the URL (deep link), else a default. */
  initialTenant: string;
  /** Called after the key was accepted, with the tenant typed. */
  onSignedIn(tenant: string): void;
}

function explain(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 401) return 'The administration key was refused (401). Use the key the admin server printed at startup (dev: .data/admin-api-key) or the value of PROCESS_MANAGEMENT_API_KEY.';
    if (error.status === 400) return `The server refused the request: ${error.message}`;
    return `The administration API answered ${error.status}: ${error.message}`;
  }
  return 'Cannot reach the administration API at /process-management/api. Is the admin server running?';
}

export function SignInForm({ initialTenant, onSignedIn }: SignInFormProps) {
  const { signIn, notice } = useSession();
  const [key, setKey] = useState('');
  const [tenant, setTenant] = useState(initialTenant);
  const [error, setError] = useState<string | undefined>(notice);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!TENANT_PATTERN.test(tenant)) {
      setError('The tenant must be 1 to 128 letters, digits, dots, dashes or underscores.');
      return;
    }
    if (key.trim() === '') {
      setError('Enter the administration key.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await createApiClient({ key, tenant }).info();
      signIn(key);
      onSignedIn(tenant);
    } catch (err) {
      setError(explain(err));
      setBusy(false);
    }
  }

  return (
    <main className="signin" id="main">
      <h1>Process dashboard</h1>
      <p className="muted">The administration console of the process orchestrator. The key stays in this tab's memory only: a reload asks for it again.</p>
      <form onSubmit={submit} method="post" autoComplete="off" aria-describedby={error ? 'signin-error' : undefined}>
        <label htmlFor="signin-key">Administration key</label>
        <input id="signin-key" name="fw-key" type="password" autoComplete="off" spellCheck={false} value={key} onChange={(e) => setKey(e.target.value)} aria-invalid={error !== undefined} autoFocus />
        <label htmlFor="signin-tenant">Tenant</label>
        <input id="signin-tenant" name="tenant" value={tenant} onChange={(e) => setTenant(e.target.value)} spellCheck={false} />
        {error && (
          <p id="signin-error" role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Open the dashboard'}
        </button>
      </form>
    </main>
  );
}
