/**
 * The sign-in form: an administration key or a bearer token (JWT) pasted from the identity
 * provider, and the tenant; and, when the admin server names an identity provider, single sign-on
 * there (OpenID Connect, see `oidc-sign-in.ts`). The credential is checked with `GET /me` (who the
 * server takes it for: role, tenants) and `GET /info` for the tenant before the session starts; a
 * refused credential or a tenant outside its scope keeps the user here with a clear message.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { createApiClient, isApiError, type Credential } from '../../api/client';
import { switchTenantPath, tenantPath } from '../../app/paths';
import { forgetPendingSignIn, startOidcSignIn, type OidcSettings } from './oidc-sign-in';
import { permissionsOf } from './permissions';
import { TENANT_PATTERN, useSession } from './session';
import { useOidcSettings } from './sign-in-options';

export interface SignInFormProps {
  /** The tenant of the URL (deep link), else a default. */
  initialTenant: string;
  /** Called after the credential was accepted, with the tenant typed. */
  onSignedIn(tenant: string): void;
}

const LABELS: Record<Credential['kind'], string> = { key: 'Administration key', token: 'Bearer token (JWT)' };

function explain(error: unknown, kind: Credential['kind']): string {
  if (isApiError(error)) {
    if (error.status === 401) {
      return kind === 'key'
        ? 'The administration key was refused (401). Use the key the admin server printed at startup (dev: .data/admin-api-key) or the value of PROCESS_MANAGEMENT_API_KEY.'
        : `The token was refused (401): ${error.message}.`;
    }
    if (error.status === 403) return `Refused (403): ${error.message}.`;
    if (error.status === 429) return 'Too many refused sign-ins from this address: wait a minute and try again (429).';
    if (error.status === 400) return `The server refused the request: ${error.message}`;
    return `The administration API answered ${error.status}: ${error.message}`;
  }
  return 'Cannot reach the administration API at /process-management/api. Is the admin server running?';
}

/** Key or token: which credential the secret field takes. */
function CredentialKindPicker({
  kind,
  onChange,
}: {
  kind: Credential['kind'];
  onChange(kind: Credential['kind']): void;
}) {
  return (
    <fieldset className="credential-kind">
      <legend>Sign in with</legend>
      {(['key', 'token'] as const).map((k) => (
        <label key={k}>
          <input type="radio" name="credential-kind" value={k} checked={kind === k} onChange={() => onChange(k)} />{' '}
          {k === 'key' ? 'Key' : 'Token'}
        </label>
      ))}
    </fieldset>
  );
}

/** Why the sign-in did not go through, announced as an alert (the form points at it). */
function SignInError({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p id="signin-error" role="alert" className="error">
      {error}
    </p>
  );
}

/** The view to open once signed in at the identity provider: the one shown, in the tenant typed. */
function returnPathFor(pathname: string, search: string, tenant: string): string {
  const shown = /^\/t\/([^/]+)/.exec(pathname);
  if (shown === null) return tenantPath(tenant);
  return decodeURIComponent(shown[1]) === tenant ? `${pathname}${search}` : switchTenantPath(pathname, search, tenant);
}

/** Why the last single sign-on did not go through: handed over by `/oidc-callback` in the history entry's state. */
export function singleSignOnProblemOf(state: unknown): string | undefined {
  const problem = (state as { singleSignOnProblem?: unknown } | null)?.singleSignOnProblem;
  return typeof problem === 'string' ? problem : undefined;
}

/** "Sign in with <identity provider>": the browser goes there and comes back signed in. */
function SingleSignOn({ settings, tenant }: { settings: OidcSettings; tenant: string }) {
  const location = useLocation();
  const [leaving, setLeaving] = useState(false);
  const [problem, onProblem] = useState<string | undefined>(singleSignOnProblemOf(location.state));
  const provider = new URL(settings.issuer).host;
  async function start() {
    if (!TENANT_PATTERN.test(tenant)) {
      onProblem('The tenant must be 1 to 128 letters, digits, dots, dashes or underscores.');
      return;
    }
    onProblem(undefined);
    setLeaving(true);
    try {
      await startOidcSignIn(settings, { tenant, returnTo: returnPathFor(location.pathname, location.search, tenant) });
    } catch (err) {
      setLeaving(false);
      onProblem(err instanceof Error ? err.message : String(err));
    }
  }
  return (
    <section className="single-sign-on" aria-labelledby="sso-heading">
      <h2 id="sso-heading">Single sign-on</h2>
      <p className="muted">Sign in with your account at {provider}; the tenant above opens afterwards.</p>
      {problem ? (
        <p id="sso-error" role="alert" className="error">
          {problem}
        </p>
      ) : null}
      <button
        type="button"
        onClick={() => void start()}
        disabled={leaving}
        aria-describedby={problem ? 'sso-error' : undefined}
      >
        {leaving ? `Going to ${provider}…` : `Sign in with ${provider}`}
      </button>
    </section>
  );
}

export function SignInForm({ initialTenant, onSignedIn }: SignInFormProps) {
  const { signIn, notice } = useSession();
  const [kind, setKind] = useState<Credential['kind']>('key');
  const [secret, setSecret] = useState('');
  const [tenant, setTenant] = useState(initialTenant);
  const [error, setError] = useState<string | undefined>(notice);
  const [busy, setBusy] = useState(false);
  const oidc = useOidcSettings();
  const ssoProblem = singleSignOnProblemOf(useLocation().state);
  // Showing the form again means a round trip to the identity provider, if any, was abandoned.
  useEffect(forgetPendingSignIn, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!TENANT_PATTERN.test(tenant)) {
      setError('The tenant must be 1 to 128 letters, digits, dots, dashes or underscores.');
      return;
    }
    if (secret.trim() === '') {
      setError(kind === 'key' ? 'Enter the administration key.' : 'Paste the bearer token.');
      return;
    }
    setBusy(true);
    setError(undefined);
    const credential: Credential = { kind, secret: secret.trim() };
    try {
      const api = createApiClient({ credential, tenant });
      const caller = await api.me();
      const permissions = permissionsOf(caller);
      if (!permissions.mayOpen(tenant)) {
        setError(
          `This credential may not open tenant “${tenant}”. Its tenants: ${permissions.tenants === '*' ? 'all' : permissions.tenants.join(', ') || 'none'}.`,
        );
        setBusy(false);
        return;
      }
      await api.info();
      signIn(credential, caller);
      onSignedIn(tenant);
    } catch (err) {
      setError(explain(err, kind));
      setBusy(false);
    }
  }

  return (
    <main className="signin" id="main">
      <h1>Process dashboard</h1>
      <p className="muted">
        The administration console of the process orchestrator. The key or token stays in this tab's memory only: a
        reload asks for it again.
      </p>
      <form onSubmit={submit} method="post" autoComplete="off" aria-describedby={error ? 'signin-error' : undefined}>
        <CredentialKindPicker kind={kind} onChange={setKind} />
        <label htmlFor="signin-key">{LABELS[kind]}</label>
        <input
          id="signin-key"
          name={kind === 'key' ? 'fw-key' : 'fw-token'}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          aria-invalid={error !== undefined}
          autoFocus
        />
        <label htmlFor="signin-tenant">Tenant</label>
        <input
          id="signin-tenant"
          name="tenant"
          value={tenant}
          onChange={(e) => setTenant(e.target.value)}
          spellCheck={false}
        />
        <SignInError error={error ?? (oidc === null ? ssoProblem : undefined)} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Open the dashboard'}
        </button>
      </form>
      {oidc ? <SingleSignOn settings={oidc} tenant={tenant} /> : null}
    </main>
  );
}
