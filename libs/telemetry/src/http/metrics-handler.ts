import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import {
  makeMetricsAccessRule,
  METRICS_HIDDEN_MESSAGE,
  METRICS_TOKEN_ENV,
  type MetricsAccessRule,
  type MetricsProfile,
} from './metrics-access';

/** Where the handler writes its start-up line and failed collections (a pino logger fits). */
export interface MetricsLog {
  info(message: string): void;
  warn(message: string): void;
}

/** Options of {@link makeMetricsHandler}. */
export interface MetricsHandlerOptions {
  /** The series to serve, usually `makeFwMetrics().registry`. */
  registry: Registry;
  /** The host's profile; see {@link makeMetricsAccessRule}. */
  profile: MetricsProfile;
  /** The bearer token; default the `FW_METRICS_TOKEN` environment variable. An empty string is no token. */
  token?: string;
  /** Where the start-up line (when /metrics is hidden) and failed collections go; default `console`. */
  log?: MetricsLog;
}

/** A request handler for `GET /metrics`: mount it in express (`app.get('/metrics', handler)`) or a node:http server. */
export type MetricsHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

function answer(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  response.end(body);
}

/**
 * The `GET /metrics` handler in Prometheus text format 0.0.4, behind the access rule of
 * {@link makeMetricsAccessRule}: 401 without the right bearer token when one is set; 404 in
 * production without a token, which it says once, when created (at the host's start-up), with
 * how to turn it on. A failed collection answers 500 with a line of text, never a stack trace.
 *
 * @example
 * app.get('/metrics', makeMetricsHandler({ registry: metrics.registry, profile: config.profile, log: logger }));
 */
export function makeMetricsHandler(options: MetricsHandlerOptions): MetricsHandler {
  const token = 'token' in options ? options.token : process.env[METRICS_TOKEN_ENV];
  const rule: MetricsAccessRule = makeMetricsAccessRule(token, options.profile);
  const log = options.log ?? console;
  if (rule.mode === 'hidden') log.info(METRICS_HIDDEN_MESSAGE);
  const { registry } = options;
  return async (request, response) => {
    const decision = rule.decide(request);
    if (decision === 'hidden') return answer(response, 404, 'Not Found\n');
    if (decision === 'unauthorized')
      return answer(response, 401, 'Unauthorized: send Authorization: Bearer <FW_METRICS_TOKEN>\n', {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    let text: string;
    try {
      text = await registry.metrics();
    } catch (error) {
      log.warn(`metrics collection failed: ${error instanceof Error ? error.message : String(error)}`);
      return answer(response, 500, 'metrics collection failed\n');
    }
    answer(response, 200, text, { 'content-type': registry.contentType });
  };
}
