/**
 * A real OpenID Connect issuer for the browser suites: a local HTTP server on 127.0.0.1 with
 * discovery (`/.well-known/openid-configuration`), an authorization endpoint that signs in the user
 * the test chose and redirects back with a one-time code, a token endpoint that checks the PKCE
 * verifier (S256) against the code's challenge and answers an access token and an ID token signed
 * by its key (RS256), and that key's JWKS (`/jwks`, which the admin server verifies tokens with).
 * The discovery and token endpoints allow any origin (CORS), as an identity provider does for a
 * browser client. Everything each endpoint received is logged for the test to check.
 *
 * @example
 * const issuer = await startOidcIssuer({ clientId: 'fw-dashboard', audience: 'fw-admin' });
 * issuer.allowRedirect('http://127.0.0.1:8080/oidc-callback');
 * issuer.signInAs({ sub: 'olga', roles: ['operator'], tenants: ['demo'] });
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadJose, type Jose } from './jose-import';

/** The user the next authorization signs in, with the claims the administration API reads. */
export interface IssuerUser {
  sub: string;
  roles: string[];
  tenants: string[];
}

/** One request an endpoint received, and what it did. */
export interface IssuerLogEntry {
  endpoint: 'discovery' | 'authorize' | 'token' | 'jwks';
  params: Record<string, string>;
  outcome: string;
}

/** How the next authorization answers, to see the client refuse it. */
export type IssuerMisbehaviour = 'wrong-state' | 'access-denied';

export interface OidcIssuer {
  /** The issuer identifier (`http://127.0.0.1:<port>/`); endpoints are below it. */
  url: string;
  clientId: string;
  log: IssuerLogEntry[];
  /** Registers a redirect URI of the client (the dashboard's, known once its server listens). */
  allowRedirect(uri: string): void;
  signInAs(user: IssuerUser): void;
  /** The next authorization answers wrongly this way (once). */
  misbehaveOnce(how: IssuerMisbehaviour): void;
  close(): Promise<void>;
}

interface IssuedCode {
  challenge: string;
  redirectUri: string;
  scope: string;
  user: IssuerUser;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

function cors(req: IncomingMessage): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': req.headers.origin ?? '*',
    'Access-Control-Allow-Methods': 'GET, POST',
    'Access-Control-Allow-Headers': 'content-type, accept',
    Vary: 'Origin',
  };
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return new URLSearchParams(text);
}

/** What the endpoints share: the key, the codes issued, the client's redirect URIs, the log. */
interface IssuerState {
  url: string;
  clientId: string;
  audience: string;
  jose: Jose;
  privateKey: CryptoKey;
  publicJwk: Record<string, unknown> & { kid: string };
  codes: Map<string, IssuedCode>;
  redirects: Set<string>;
  log: IssuerLogEntry[];
  user: IssuerUser;
  misbehaviour: IssuerMisbehaviour | undefined;
}

function signed(state: IssuerState, claims: Record<string, unknown>, audience: string): Promise<string> {
  return new state.jose.SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: state.publicJwk.kid, typ: 'JWT' })
    .setIssuer(state.url)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(state.privateKey);
}

function discovery(state: IssuerState, req: IncomingMessage, res: ServerResponse): void {
  const { url } = state;
  state.log.push({ endpoint: 'discovery', params: {}, outcome: 'served' });
  const metadata = {
    issuer: url,
    authorization_endpoint: `${url}authorize`,
    token_endpoint: `${url}token`,
    jwks_uri: `${url}jwks`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code'],
    code_challenge_methods_supported: ['S256'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    token_endpoint_auth_methods_supported: ['none'],
    scopes_supported: ['openid'],
    authorization_response_iss_parameter_supported: true,
  };
  send(res, 200, metadata, cors(req));
}

/** The parameters of the redirect back: a code, or the error the request (or the test) calls for. */
function answerOf(state: IssuerState, query: URLSearchParams, redirectUri: string): URLSearchParams {
  const answer = new URLSearchParams({ iss: state.url });
  const challenge = query.get('code_challenge') ?? '';
  const how = state.misbehaviour;
  state.misbehaviour = undefined;
  if (
    query.get('response_type') !== 'code' ||
    query.get('code_challenge_method') !== 'S256' ||
    !/^[A-Za-z0-9_-]{43}$/.test(challenge)
  ) {
    answer.set('error', 'invalid_request');
  } else if (how === 'access-denied') {
    answer.set('error', 'access_denied');
    answer.set('error_description', 'The user did not allow it');
  } else {
    const code = randomBytes(24).toString('base64url');
    state.codes.set(code, { challenge, redirectUri, scope: query.get('scope') ?? '', user: state.user });
    answer.set('code', code);
  }
  const given = query.get('state') ?? '';
  answer.set('state', how === 'wrong-state' ? `${given}-changed` : given);
  return answer;
}

function authorize(state: IssuerState, query: URLSearchParams, res: ServerResponse): void {
  const params = Object.fromEntries(query);
  const redirectUri = query.get('redirect_uri') ?? '';
  // An unknown client or redirect URI is never redirected to (that would be an open redirect).
  if (query.get('client_id') !== state.clientId || !state.redirects.has(redirectUri)) {
    state.log.push({ endpoint: 'authorize', params, outcome: 'refused: client or redirect URI' });
    res.writeHead(400, { 'Content-Type': 'text/plain' }).end('unknown client or redirect URI');
    return;
  }
  const back = new URL(redirectUri);
  for (const [name, value] of answerOf(state, query, redirectUri)) back.searchParams.set(name, value);
  state.log.push({ endpoint: 'authorize', params, outcome: back.searchParams.has('code') ? 'code' : 'error' });
  res.writeHead(302, { Location: back.href, 'Cache-Control': 'no-store' }).end();
}

/** Why the token request is refused, or undefined; the code is spent either way. */
function grantRefusal(state: IssuerState, form: URLSearchParams, issued: IssuedCode | undefined): string | undefined {
  if (form.get('grant_type') !== 'authorization_code') return 'unsupported_grant_type';
  const verifier = form.get('code_verifier') ?? '';
  const matches =
    issued !== undefined &&
    form.get('client_id') === state.clientId &&
    form.get('redirect_uri') === issued.redirectUri &&
    createHash('sha256').update(verifier).digest('base64url') === issued.challenge;
  return matches ? undefined : 'invalid_grant';
}

async function token(state: IssuerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = await formOf(req);
  const params = Object.fromEntries(form);
  const code = form.get('code') ?? '';
  const issued = state.codes.get(code);
  state.codes.delete(code); // one use
  const refusal = grantRefusal(state, form, issued);
  if (refusal !== undefined || issued === undefined) {
    state.log.push({ endpoint: 'token', params, outcome: refusal ?? 'invalid_grant' });
    send(res, 400, { error: refusal ?? 'invalid_grant' }, cors(req));
    return;
  }
  const who = issued.user;
  const claims = { sub: who.sub, fw_roles: who.roles, fw_tenants: who.tenants, scope: issued.scope };
  const accessToken = await signed(state, claims, state.audience);
  const idToken = await signed(state, { sub: who.sub }, state.clientId);
  state.log.push({ endpoint: 'token', params, outcome: 'issued' });
  const answer = {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: 600,
    id_token: idToken,
    scope: issued.scope,
  };
  send(res, 200, answer, cors(req));
}

function route(state: IssuerState, req: IncomingMessage, res: ServerResponse): void {
  const at = new URL(req.url ?? '/', state.url);
  if (req.method === 'OPTIONS') return void res.writeHead(204, cors(req)).end();
  if (req.method === 'GET' && at.pathname === '/.well-known/openid-configuration') return discovery(state, req, res);
  if (req.method === 'GET' && at.pathname === '/authorize') return authorize(state, at.searchParams, res);
  if (req.method === 'POST' && at.pathname === '/token')
    return void token(state, req, res).catch(() => send(res, 500, { error: 'server_error' }, cors(req)));
  if (req.method === 'GET' && at.pathname === '/jwks') {
    state.log.push({ endpoint: 'jwks', params: {}, outcome: 'served' });
    return send(res, 200, { keys: [state.publicJwk] });
  }
  send(res, 404, { error: 'not_found' });
}

export async function startOidcIssuer(options: { clientId: string; audience: string }): Promise<OidcIssuer> {
  const jose = await loadJose();
  const { privateKey, publicKey } = await jose.generateKeyPair('RS256');
  const state: IssuerState = {
    url: '',
    clientId: options.clientId,
    audience: options.audience,
    jose,
    privateKey,
    publicJwk: { ...(await jose.exportJWK(publicKey)), kid: 'e2e-issuer', alg: 'RS256', use: 'sig' },
    codes: new Map(),
    redirects: new Set(),
    log: [],
    user: { sub: 'nobody', roles: [], tenants: [] },
    misbehaviour: undefined,
  };
  const server = createServer((req, res) => route(state, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: state.url,
    clientId: options.clientId,
    log: state.log,
    allowRedirect: (uri) => void state.redirects.add(uri),
    signInAs: (next) => {
      state.user = next;
    },
    misbehaveOnce: (how) => {
      state.misbehaviour = how;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
