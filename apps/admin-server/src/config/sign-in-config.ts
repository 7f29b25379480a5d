/**
 * Single sign-on of the process dashboard, from the environment: the dashboard signs the user in
 * at your identity provider (OpenID Connect, authorization code with PKCE, in the browser) and
 * calls the administration API with the access token it gets, which the API verifies like any
 * bearer token (so bearer tokens must be configured: `PROCESS_MANAGEMENT_JWKS_URL` or `_FILE`).
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `FW_ADMIN_OIDC_ISSUER` | — (no single sign-on) | the issuer; its `/.well-known/openid-configuration` names the endpoints. https, or http on a loopback address (a local identity provider) |
 * | `FW_ADMIN_OIDC_CLIENT_ID` | — | the dashboard's client id at the identity provider (a public client: no secret), required with the issuer |
 * | `FW_ADMIN_OIDC_SCOPE` | `openid` | the scopes asked for, space-separated |
 * | `FW_ADMIN_OIDC_CONNECT_ORIGINS` | — | further origins the browser calls, comma-separated: the token endpoint's when it is not the issuer's |
 *
 * @example
 * signInConfigFromEnv({ FW_ADMIN_OIDC_ISSUER: 'https://idp.example.com/realms/ops', FW_ADMIN_OIDC_CLIENT_ID: 'fw-dashboard' }, true);
 * // { oidc: { issuer: 'https://idp.example.com/realms/ops', clientId: 'fw-dashboard', scope: 'openid', connectOrigins: ['https://idp.example.com'] } }
 */
import { ConfigError } from '@fw/core';

/** What the dashboard needs to sign in at the identity provider. */
export interface OidcSignIn {
  issuer: string;
  clientId: string;
  scope: string;
  /** Origins the page calls besides its own: the issuer's and `FW_ADMIN_OIDC_CONNECT_ORIGINS`. */
  connectOrigins: string[];
}

export interface DashboardSignInConfig {
  oidc?: OidcSignIn;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname) || url.hostname.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/** An issuer or origin the browser may reach: https, or http on a loopback address. */
function webUrlOf(raw: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got '${raw}'`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url)))
    throw new ConfigError(`${name} must be https (http only on a loopback address), got '${raw}'`);
  if (url.search !== '' || url.hash !== '')
    throw new ConfigError(`${name} must have no query or fragment, got '${raw}'`);
  return url;
}

function connectOriginsOf(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '')
    .map((v) => {
      const url = webUrlOf(v, 'FW_ADMIN_OIDC_CONNECT_ORIGINS');
      if (url.origin !== v.replace(/\/$/, ''))
        throw new ConfigError(`FW_ADMIN_OIDC_CONNECT_ORIGINS takes origins (scheme, host, port), got '${v}'`);
      return url.origin;
    });
}

/**
 * Reads the single sign-on settings; `bearerTokens` says whether the API accepts bearer tokens.
 * @throws ConfigError naming the variable to fix.
 */
export function signInConfigFromEnv(env: NodeJS.ProcessEnv, bearerTokens: boolean): DashboardSignInConfig {
  const issuerRaw = env.FW_ADMIN_OIDC_ISSUER?.trim() || undefined;
  const clientId = env.FW_ADMIN_OIDC_CLIENT_ID?.trim() || undefined;
  if (issuerRaw === undefined && clientId === undefined) return {};
  if (issuerRaw === undefined) throw new ConfigError('FW_ADMIN_OIDC_CLIENT_ID is set without FW_ADMIN_OIDC_ISSUER');
  if (clientId === undefined)
    throw new ConfigError('FW_ADMIN_OIDC_ISSUER is set without FW_ADMIN_OIDC_CLIENT_ID (the dashboard’s client id)');
  if (!bearerTokens)
    throw new ConfigError(
      'FW_ADMIN_OIDC_ISSUER needs bearer tokens: set PROCESS_MANAGEMENT_JWKS_URL (or _JWKS_FILE) with PROCESS_MANAGEMENT_JWT_ISSUER and _JWT_AUDIENCE',
    );
  const issuer = webUrlOf(issuerRaw, 'FW_ADMIN_OIDC_ISSUER');
  const scope = env.FW_ADMIN_OIDC_SCOPE?.trim().split(/\s+/).join(' ') || 'openid';
  const connectOrigins = [...new Set([issuer.origin, ...connectOriginsOf(env.FW_ADMIN_OIDC_CONNECT_ORIGINS)])];
  return { oidc: { issuer: issuerRaw, clientId, scope, connectOrigins } };
}
