/**
 * The other end of a traced and scraped bench run: an OTLP/HTTP receiver that answers every export
 * and counts what it got (requests, bytes; nothing is kept), and a scraper that reads a
 * `/metrics` URL every second as a (demanding) Prometheus would. It runs in the bench's
 * coordinating process, so the measured process pays only for producing the telemetry.
 *
 * @example
 * const collector = await startTelemetryCollector();
 * process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.endpoint;
 * collector.scrape(metricsUrl);
 * // … the run …
 * const figures = await collector.stop(); // { exports, exportedBytes, scrapes, scrapeFailures }
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a collector received. */
export interface CollectedTelemetry {
  /** OTLP export requests to `/v1/traces`. */
  exports: number;
  exportedBytes: number;
  /** Scrapes answered 200, and those that were not. */
  scrapes: number;
  scrapeFailures: number;
}

export interface TelemetryCollector {
  /** Base URL for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly endpoint: string;
  /** Scrapes `url` now and then every `intervalMillis` (default 1000) until `stop()`. */
  scrape(url: string, intervalMillis?: number): void;
  /** Stops scraping and listening; returns the counts (also readable before with `figures()`). */
  stop(): Promise<CollectedTelemetry>;
  figures(): CollectedTelemetry;
}

/** Starts the receiver on a free loopback port. */
export async function startTelemetryCollector(): Promise<TelemetryCollector> {
  const figures: CollectedTelemetry = { exports: 0, exportedBytes: 0, scrapes: 0, scrapeFailures: 0 };
  const server = createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') return void response.writeHead(404).end();
      figures.exports++;
      figures.exportedBytes += bytes;
      const json = String(request.headers['content-type']).startsWith('application/json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const timers: NodeJS.Timeout[] = [];
  const scrapeOnce = async (url: string): Promise<void> => {
    try {
      const answer = await fetch(url);
      await answer.arrayBuffer();
      if (answer.ok) figures.scrapes++;
      else figures.scrapeFailures++;
    } catch {
      // The node stops serving at the end of its run: a refused scrape then is expected.
      figures.scrapeFailures++;
    }
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    scrape(url, intervalMillis = 1000) {
      void scrapeOnce(url);
      timers.push(setInterval(() => void scrapeOnce(url), intervalMillis));
    },
    figures: () => ({ ...figures }),
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return { ...figures };
    },
  };
}
