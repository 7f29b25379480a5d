import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The host's profile: `dev` serves /metrics open when no token is set; `production` hides it. */
export type MetricsProfile = 'dev' | 'production';

/** The environment variable holding the bearer token that guards /metrics. */
export const METRICS_TOKEN_ENV = 'FW_METRICS_TOKEN';

/** What a request for /metrics gets: the metrics, 401 (token missing or wrong) or 404 (not served). */
export type MetricsAccessDecision = 'serve' | 'unauthorized' | 'hidden';

/** The access rule of one host, fixed at start-up. */
export interface MetricsAccessRule {
  /** `token`: a bearer token is required; `open`: dev profile without token; `hidden`: production without token. */
  readonly mode: 'token' | 'open' | 'hidden';
  decide(request: IncomingMessage): MetricsAccessDecision;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The bearer credentials of an Authorization header, or undefined. */
function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

/**
 * The access rule: with a token (non-empty), `Authorization: Bearer <token>` is required and
 * compared in constant time (both sides hashed to equal length first, so neither the content
 * nor the length of the token leaks through timing); without one, the dev profile serves
 * /metrics open and any other profile answers 404.
 */
export function makeMetricsAccessRule(token: string | undefined, profile: MetricsProfile): MetricsAccessRule {
  if (profile !== 'dev' && profile !== 'production')
    throw new TypeError(`metrics profile must be 'dev' or 'production', got ${JSON.stringify(profile)}`);
  if (token) {
    const expected = digest(token);
    return {
      mode: 'token',
      decide: (request) => {
        const given = bearerToken(request);
        return given !== undefined && timingSafeEqual(digest(given), expected) ? 'serve' : 'unauthorized';
      },
    };
  }
  const mode = profile === 'dev' ? 'open' : 'hidden';
  return { mode, decide: () => (mode === 'open' ? 'serve' : 'hidden') };
}

/** The start-up line of a host whose /metrics is hidden: how to turn it on. */
export const METRICS_HIDDEN_MESSAGE =
  `GET /metrics answers 404: set ${METRICS_TOKEN_ENV} to a secret and configure Prometheus to send it ` +
  '(scrape_configs: authorization: { credentials: <the secret> }) to serve the metrics';
