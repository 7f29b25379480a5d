/**
 * `/oidc-callback`, where the identity provider sends the browser back: finishes the sign-in
 * (state, code exchange), checks the token with `GET /me` and the tenant with `GET /info` like the
 * form does, starts the session with the access token (memory only) and opens the view the user
 * came from. Any failure ends on the sign-in form, the reason shown in its single sign-on part.
 */
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { createApiClient, isApiError, type Credential } from '../../api/client';
import type { Caller } from '../../api/types';
import { completeOidcSignIn } from './oidc-sign-in';
import { permissionsOf } from './permissions';
import { useSession } from './session';

function explain(err: unknown): string {
  if (isApiError(err)) {
    if (err.status === 401)
      return `The administration API refused the token of the identity provider (401): ${err.message}.`;
    return `The administration API answered ${err.status}: ${err.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Signs in with the token, or says why not; where to go then. */
async function finish(
  signIn: (credential: Credential, caller: Caller) => void,
): Promise<{ to: string; problem?: string }> {
  let returnTo = '/';
  try {
    const done = await completeOidcSignIn(new URL(window.location.href));
    returnTo = done.returnTo;
    const credential: Credential = { kind: 'token', secret: done.accessToken };
    const api = createApiClient({ credential, tenant: done.tenant });
    const caller = await api.me();
    if (!permissionsOf(caller).mayOpen(done.tenant))
      return { to: returnTo, problem: `This account may not open tenant “${done.tenant}”.` };
    await api.info();
    signIn(credential, caller);
    return { to: returnTo };
  } catch (err) {
    return { to: returnTo, problem: `Single sign-on did not go through. ${explain(err)}` };
  }
}

export function OidcCallbackView() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  // Once per page: the code and the verifier serve one exchange (React may run an effect twice in development).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void finish(signIn).then(({ to, problem }) => {
      // Replaces the callback URL, so the code leaves the address bar and the history; a problem
      // travels in the entry's state to the sign-in form's single sign-on section.
      void navigate(to, { replace: true, state: problem === undefined ? null : { singleSignOnProblem: problem } });
    });
  }, [signIn, navigate]);
  return (
    <main id="main" className="signin">
      <h1>Process dashboard</h1>
      <p role="status">Signing you in…</p>
    </main>
  );
}
