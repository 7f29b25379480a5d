/**
 * The response headers of a single-page app: what its index page may load, how long each file may
 * be cached. Vite names every bundle under `assets/` by the hash of its content, so those never
 * change under their name; everything else (the index, `favicon.svg`) is revalidated each time.
 */

/** `Cache-Control` of a hashed bundle under `assets/`: a year, never revalidated. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** `Cache-Control` of the index and the other files: revalidate before each use. */
export const REVALIDATE_CACHE = 'no-cache';

/**
 * The content security policy of an app's page: scripts, styles, fonts and API calls from its own
 * origin only, no plugins, no framing, forms posting nowhere else. `inlineStyles` allows `style`
 * attributes, which React's style props and Mermaid's SVG need; inline scripts stay refused.
 * `connectSources` are further origins the page may call (an identity provider's discovery and
 * token endpoints, for a sign-in in the browser); each must be an http(s) origin.
 *
 * @example
 * spaContentSecurityPolicy({ inlineStyles: false });   // "default-src 'self'; script-src 'self'; style-src 'self'; …"
 * spaContentSecurityPolicy({ inlineStyles: false, connectSources: ['https://idp.example.com'] });   // "… connect-src 'self' https://idp.example.com; …"
 * @throws Error for a connect source that is not an http(s) origin (a path, a wildcard, a quote would widen or break the policy).
 */
export function spaContentSecurityPolicy(options: {
  inlineStyles: boolean;
  connectSources?: readonly string[];
}): string {
  const connect = ["'self'", ...(options.connectSources ?? []).map(checkedOrigin)];
  return [
    "default-src 'self'",
    "script-src 'self'",
    options.inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** `origin` as the policy writes it, or an error when it is no http(s) origin. */
function checkedOrigin(origin: string): string {
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.origin !== origin.replace(/\/$/, '')
  )
    throw new Error(`A connect source of the content security policy must be an http(s) origin, got '${origin}'`);
  return url.origin;
}

/** The headers of the index page (and of the page saying the app is not built). */
export function spaPageHeaders(contentSecurityPolicy: string): Record<string, string> {
  return {
    'Cache-Control': REVALIDATE_CACHE,
    'Content-Security-Policy': contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}
