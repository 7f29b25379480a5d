/**
 * Single sign-on at the identity provider the admin server names (OpenID Connect, authorization
 * code flow with PKCE), through `oauth4webapi`: discovery from `<issuer>/.well-known/openid-configuration`,
 * the browser sent to the authorization endpoint with an S256 code challenge and a random state,
 * and on its way back (`/oidc-callback`) the state checked, the code exchanged at the token endpoint
 * and the answer validated (its ID token's issuer, audience and times included).
 *
 * What crosses the redirect: the PKCE verifier, the state, the tenant and the view to return to are
 * kept in `sessionStorage` under one key for the round trip only — written just before the browser
 * leaves, removed as soon as it is back (before the code is exchanged, whatever happens next), and
 * removed when the sign-in form shows again (a round trip abandoned). The access token itself is
 * never stored: it is handed to the session, which keeps it in memory.
 *
 * @example
 * await startOidcSignIn(settings, { tenant: 'demo', returnTo: '/t/demo/cron' });  // the browser leaves
 * const done = await completeOidcSignIn(new URL(location.href));                   // on /oidc-callback
 * // { accessToken, tenant: 'demo', returnTo: '/t/demo/cron' }
 */
import type * as OAuth from 'oauth4webapi';

type OAuthModule = typeof OAuth;

/** The protocol library, loaded when a sign-in starts or returns (its own chunk: no cost for key users). */
function loadOAuth(): Promise<OAuthModule> {
  return import('oauth4webapi');
}

/** What the admin server says about its identity provider (`dashboard-config.json`). */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  scope: string;
}

/** The path the identity provider sends the browser back to, below the dashboard's base. */
export const OIDC_CALLBACK_PATH = 'oidc-callback';

/** The one `sessionStorage` key of a sign-in on its round trip. */
export const PENDING_SIGN_IN_KEY = 'fw-dashboard-oidc-pending';

interface PendingSignIn {
  issuer: string;
  clientId: string;
  redirectUri: string;
  state: string;
  codeVerifier: string;
  tenant: string;
  returnTo: string;
}

/** A sign-in that did not go through, worded for the sign-in form. */
export class OidcSignInError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OidcSignInError';
  }
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** oauth4webapi refuses plain http; an identity provider on this machine (development) may use it. */
function requestOptions(oauth: OAuthModule, issuer: URL): { [OAuth.allowInsecureRequests]?: boolean } {
  return issuer.protocol === 'http:' && LOOPBACK.test(issuer.hostname) ? { [oauth.allowInsecureRequests]: true } : {};
}

/** The redirect URI registered at the identity provider: `<dashboard>/oidc-callback`. */
export function oidcRedirectUri(): string {
  return new URL(OIDC_CALLBACK_PATH, document.baseURI).href;
}

async function discover(oauth: OAuthModule, issuer: URL): Promise<OAuth.AuthorizationServer> {
  let response: Response;
  try {
    response = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...requestOptions(oauth, issuer) });
  } catch (err) {
    throw new OidcSignInError(
      `The identity provider at ${issuer.origin} cannot be reached from this page (is it up, and does it allow this origin?).`,
      { cause: err },
    );
  }
  try {
    return await oauth.processDiscoveryResponse(issuer, response);
  } catch (err) {
    throw new OidcSignInError(`The identity provider’s discovery document was refused: ${reasonOf(oauth, err)}.`, {
      cause: err,
    });
  }
}

function reasonOf(oauth: OAuthModule, err: unknown): string {
  if (err instanceof oauth.AuthorizationResponseError)
    return `${err.error}${err.error_description ? ` (${err.error_description})` : ''}`;
  if (err instanceof oauth.ResponseBodyError)
    return `${err.error}${err.error_description ? ` (${err.error_description})` : ''}`;
  return err instanceof Error ? err.message : String(err);
}

/** Reads and removes the pending sign-in at once: it serves one return only. */
function takePending(): PendingSignIn | undefined {
  const raw = sessionStorage.getItem(PENDING_SIGN_IN_KEY);
  sessionStorage.removeItem(PENDING_SIGN_IN_KEY);
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as PendingSignIn;
  } catch {
    return undefined;
  }
}

/** Forgets a round trip that was abandoned (the sign-in form is showing again). */
export function forgetPendingSignIn(): void {
  sessionStorage.removeItem(PENDING_SIGN_IN_KEY);
}

/** Sends the browser to the identity provider; resolves only if it could not. */
export async function startOidcSignIn(
  settings: OidcSettings,
  target: { tenant: string; returnTo: string },
): Promise<void> {
  const oauth = await loadOAuth();
  const issuer = new URL(settings.issuer);
  const server = await discover(oauth, issuer);
  if (server.authorization_endpoint === undefined)
    throw new OidcSignInError('The identity provider names no authorization endpoint.');
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const redirectUri = oidcRedirectUri();
  const url = new URL(server.authorization_endpoint);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', settings.scope);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  const pending: PendingSignIn = {
    issuer: settings.issuer,
    clientId: settings.clientId,
    redirectUri,
    state,
    codeVerifier,
    ...target,
  };
  sessionStorage.setItem(PENDING_SIGN_IN_KEY, JSON.stringify(pending));
  window.location.assign(url.href);
}

/** A path of this app to return to (never another origin). */
function safeReturnPath(path: string): string {
  return path.startsWith('/') && !path.startsWith('//') && !path.includes('\\') ? path : '/';
}

/**
 * Finishes the sign-in on the redirect back: checks the state, exchanges the code with the PKCE
 * verifier, validates the answer.
 * @throws OidcSignInError saying why (no sign-in started in this tab, the provider's refusal, a state that does not match, a refused exchange).
 */
export async function completeOidcSignIn(
  callback: URL,
): Promise<{ accessToken: string; tenant: string; returnTo: string }> {
  const pending = takePending();
  if (pending === undefined)
    throw new OidcSignInError('No sign-in was started in this tab (or it was already completed): sign in again.');
  const oauth = await loadOAuth();
  const issuer = new URL(pending.issuer);
  const server = await discover(oauth, issuer);
  const client: OAuth.Client = { client_id: pending.clientId };
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(server, client, callback, pending.state);
  } catch (err) {
    throw new OidcSignInError(`The identity provider’s answer was refused: ${reasonOf(oauth, err)}.`, {
      cause: err,
    });
  }
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      server,
      client,
      oauth.None(),
      parameters,
      pending.redirectUri,
      pending.codeVerifier,
      requestOptions(oauth, issuer),
    );
    const tokens = await oauth.processAuthorizationCodeResponse(server, client, response);
    return { accessToken: tokens.access_token, tenant: pending.tenant, returnTo: safeReturnPath(pending.returnTo) };
  } catch (err) {
    throw new OidcSignInError(`The code could not be exchanged for a token: ${reasonOf(oauth, err)}.`, {
      cause: err,
    });
  }
}
