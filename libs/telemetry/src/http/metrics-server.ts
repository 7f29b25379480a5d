import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeMetricsHandler, type MetricsHandlerOptions } from './metrics-handler';

/** The environment variable naming the port of {@link serveMetrics}. */
export const METRICS_PORT_ENV = 'FW_METRICS_PORT';

/** Options of {@link serveMetrics}: the handler's, and where to listen. */
export interface ServeMetricsOptions extends MetricsHandlerOptions {
  /** TCP port; default `FW_METRICS_PORT`. 0 picks a free one (see `port` of the answer). */
  port?: number;
  /** Address to bind; default `0.0.0.0` (Prometheus scrapes from another machine). */
  bindAddress?: string;
}

/** A running metrics server. */
export interface MetricsServer {
  /** The port it listens on. */
  readonly port: number;
  /** `http://<address>:<port>/metrics`. */
  readonly url: string;
  /** Stops listening and closes open connections (Prometheus keeps them alive between scrapes); idempotent. */
  close(): Promise<void>;
}

/**
 * The port to serve metrics on: `metricsPort` when given, else `FW_METRICS_PORT`, else undefined
 * (no metrics server). A value that is not a port (an integer 0–65535) is an error naming it.
 */
export function resolveMetricsPort(
  metricsPort: number | undefined,
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  if (metricsPort !== undefined) return checkedPort(metricsPort, 'metricsPort');
  const text = env[METRICS_PORT_ENV]?.trim();
  if (!text) return undefined;
  if (!/^\d+$/.test(text))
    throw new RangeError(`${METRICS_PORT_ENV} must be a port number (0-65535), got ${JSON.stringify(text)}`);
  return checkedPort(Number(text), METRICS_PORT_ENV);
}

function checkedPort(port: number, source: string): number {
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`${source} must be a port number (0-65535), got ${String(port)}`);
  return port;
}

/**
 * A small HTTP server answering `GET /metrics` (404 for other paths, 405 for other methods), for
 * hosts without an HTTP API of their own such as worker hosts. Same access rule as
 * {@link makeMetricsHandler}.
 *
 * @example
 * const server = await serveMetrics({ registry: metrics.registry, profile: 'production', port: 9464 });
 * // … on shutdown:
 * await server.close();
 */
export async function serveMetrics(options: ServeMetricsOptions): Promise<MetricsServer> {
  const port = resolveMetricsPort(options.port);
  if (port === undefined) throw new RangeError(`serveMetrics needs a port: the port option or ${METRICS_PORT_ENV}`);
  const handler = makeMetricsHandler(options);
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
    } else if (request.method !== 'GET' && request.method !== 'HEAD') {
      response
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' })
        .end('Method Not Allowed\n');
    } else {
      void handler(request, response);
    }
  });
  const bindAddress = options.bindAddress ?? '0.0.0.0';
  await listen(server, port, bindAddress);
  const actual = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    port: actual,
    url: `http://${bindAddress === '0.0.0.0' ? '127.0.0.1' : bindAddress}:${actual}/metrics`,
    close: () => (closing ??= closeServer(server)),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
