/**
 * A local OTLP/HTTP trace receiver for export tests: listens on a free loopback port and keeps
 * every request to `/v1/traces` (http/json and http/protobuf bodies alike); other paths get 404.
 *
 * @example
 * const receiver = await startOtlpReceiver();
 * process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.endpoint;
 * // … start an SDK, record and flush spans …
 * const spans = exportedSpans(receiver.received); // http/json bodies only
 * await receiver.close();
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: its content type and raw body. */
export interface ReceivedExport {
  contentType: string;
  body: Buffer;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** Base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly endpoint: string;
  readonly received: ReceivedExport[];
  close(): Promise<void>;
}

/** Starts a receiver on a free loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedExport[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      received.push({ contentType: String(request.headers['content-type']), body: Buffer.concat(chunks) });
      const json = String(request.headers['content-type']).startsWith('application/json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** One span of an OTLP/JSON export, as the tests read it. */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
  status: { code?: number; message?: string };
  events: { name: string }[];
  resource: Record<string, unknown>;
}

interface JsonKeyValue {
  key: string;
  value: Record<string, unknown>;
}

function flatten(attributes: JsonKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]));
}

/** Every span of the OTLP/JSON bodies received, with resource and attributes flattened to objects. */
export function exportedSpans(received: ReceivedExport[]): ExportedSpan[] {
  const spans: ExportedSpan[] = [];
  for (const { body } of received) {
    const parsed = JSON.parse(body.toString('utf8')) as {
      resourceSpans: {
        resource: { attributes: JsonKeyValue[] };
        scopeSpans: {
          spans: (Omit<ExportedSpan, 'attributes' | 'links' | 'resource'> & {
            attributes: JsonKeyValue[];
            links?: { traceId: string; spanId: string; attributes: JsonKeyValue[] }[];
          })[];
        }[];
      }[];
    };
    for (const resourceSpans of parsed.resourceSpans)
      for (const scope of resourceSpans.scopeSpans)
        for (const span of scope.spans)
          spans.push({
            ...span,
            parentSpanId: span.parentSpanId || undefined,
            attributes: flatten(span.attributes),
            links: (span.links ?? []).map((l) => ({ ...l, attributes: flatten(l.attributes) })),
            events: span.events ?? [],
            resource: flatten(resourceSpans.resource.attributes),
          });
  }
  return spans;
}
