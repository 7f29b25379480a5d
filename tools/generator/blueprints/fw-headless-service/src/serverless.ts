// The serverless entry: `handler(event)` in the shape function platforms pass to an HTTP-triggered
// function (an API-gateway-style event in, `{ statusCode, headers, body }` out). The operation is
// `pathParameters.operation` (a route like `/{operation}`) or the event's own `operation`; the
// body is the operation's JSON input. The registry is built once per cold start and reused by
// every warm invocation, as function platforms keep module state between calls.
import { createLogger, FwError } from '@fw/core';
import type { ServiceRegistry } from '@fw/service';
import { failureOutcome, successOutcome } from './outcome';
import { make{{servicePascal}}Registry } from './registry';
import { SERVICE_NAME } from './service';

export interface ServerlessEvent {
  operation?: string;
  pathParameters?: { operation?: string } | null;
  headers?: Record<string, string | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
}

export interface ServerlessResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

const logger = createLogger({ name: '{{serviceKebab}}-serverless' });
let registry: ServiceRegistry | undefined;

function parseBody(event: ServerlessEvent): unknown {
  if (event.body === undefined || event.body === null || event.body === '') return {};
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new FwError({ code: 400, subErrorCode: 'FW400', description: 'The body is not valid JSON', field: 'body' });
  }
}

function lowerCaseHeaders(headers: ServerlessEvent['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}

/** Runs one invocation against `target` (default: this package's registry, created on first use). */
export async function handler(event: ServerlessEvent, target?: ServiceRegistry): Promise<ServerlessResult> {
  const reg = target ?? (registry ??= make{{servicePascal}}Registry(logger));
  let envelope;
  try {
    const operation = event.pathParameters?.operation ?? event.operation;
    if (!operation) throw new FwError({ code: 400, subErrorCode: 'FW400', description: 'No operation: give pathParameters.operation or operation', field: 'operation' });
    const headers = lowerCaseHeaders(event.headers);
    const tenant = headers['x-fw-tenant-id'];
    const output = await reg.invoke(SERVICE_NAME, operation, parseBody(event), { headers, ...(tenant ? { tenant } : {}) });
    envelope = successOutcome(output);
  } catch (err) {
    envelope = failureOutcome(err, logger);
  }
  return { statusCode: envelope.code, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(envelope) };
}
