/**
 * Requests for the `/process` endpoints (the router of `@fw/process-service`, as the admin server
 * serves it behind the key), generated from the schemas of their OpenAPI description
 * (PROCESS_API_SCHEMAS) mixed with hostile values, like request-arbitraries.ts does for the
 * administration API; and the document those endpoints have in such a host, for the contract.
 */
import { allowedMethods, pathTemplates } from '@fw/core';
import {
  EVENT_PAYLOAD_SCHEMAS,
  PROCESS_API_OPERATIONS,
  PROCESS_API_SCHEMAS,
  type ProcessApiOperation,
} from '@fw/process-service';
import fc from 'fast-check';
import type { OpenApiLike } from '../../src';
import { deepJsonText, hostileString } from './hostile-values';
import type { GeneratedRequest } from './request-arbitraries';
import { schemaArbitrary, type JsonValue } from './schema-arbitraries';

export interface KnownProcesses {
  definitionNames: readonly string[];
  processIds: readonly string[];
}

const envelope = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };

/** The `/process` paths as a host serving them behind the key documents them (401 added, as the admin server does). */
export function processDocument(): OpenApiLike {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of PROCESS_API_OPERATIONS) {
    const item = (paths[op.path] ??= {
      'x-fw-method-not-allowed': { $ref: '#/components/responses/EnvelopeMethodNotAllowed' },
    });
    item[op.method.toLowerCase()] = {
      ...op.openapi,
      responses: { ...op.openapi.responses, '401': { description: 'Missing or wrong key (PM401)', ...envelope } },
    };
  }
  const responses = {
    EnvelopeMethodNotAllowed: {
      description: '405',
      headers: { Allow: { required: true, schema: { type: 'string' } } },
      ...envelope,
    },
  };
  return { paths, components: { schemas: { ...PROCESS_API_SCHEMAS }, responses } };
}

const EVENTS = Object.keys(EVENT_PAYLOAD_SCHEMAS);

function hintsOf(known: KnownProcesses): Record<string, fc.Arbitrary<JsonValue>> {
  const name = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...known.definitionNames) },
    { weight: 1, arbitrary: fc.constantFrom('no-such-type', ' single') },
  );
  const processId = fc.oneof(fc.constantFrom(...known.processIds), fc.uuid({ version: 4 }));
  return {
    processDefName: name,
    processType: name,
    processId,
    childId: fc.option(processId),
    percentComplete: fc.integer({ min: -5, max: 105 }),
    state: fc.constantFrom('PROCESSED', 'PROCESSED_WITH_ERRORS'),
  };
}

function bodyFor(schema: string, known: KnownProcesses): fc.Arbitrary<{ body: string; contentType: string }> {
  const json = schemaArbitrary(
    { $ref: `#/components/schemas/${schema}` },
    { components: PROCESS_API_SCHEMAS, hostile: true, hints: hintsOf(known) },
  );
  return fc.oneof(
    { weight: 20, arbitrary: json.map((value) => ({ body: JSON.stringify(value), contentType: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{"processDefName":', 'null', '[]', '"x"')
        .map((body) => ({ body, contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: deepJsonText.map((deep) => ({
        body: `{"processDefName":"single","args":${deep},"output":${deep}}`,
        contentType: 'application/json',
      })),
    },
    { weight: 1, arbitrary: json.map((value) => ({ body: JSON.stringify(value), contentType: 'text/plain' })) },
  );
}

/** A value a URL path can carry as a segment (not resolved away, no lone surrogate). */
function pathSegment(text: string): boolean {
  if (text === '' || text === '.' || text === '..' || text.length >= 5_000) return false;
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

function idArbitrary(known: KnownProcesses): fc.Arbitrary<string> {
  const usable = hostileString.filter(pathSegment);
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...known.processIds) },
    { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
    { weight: 2, arbitrary: usable },
  );
}

/** Path parameters, and the body schema (an event's payload schema by the generated eventID). */
function partsOf(
  op: ProcessApiOperation,
  known: KnownProcesses,
): fc.Arbitrary<{ path: string; body?: { body: string; contentType: string } }> {
  const id = idArbitrary(known);
  if (op.body === 'event') {
    const event = fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...EVENTS) },
      { weight: 1, arbitrary: fc.constantFrom('fly', 'constructor', '__proto__', 'toString', 'splitdone') },
    );
    return fc.tuple(id, event).chain(([pid, eventId]) => {
      const schema = Object.hasOwn(EVENT_PAYLOAD_SCHEMAS, eventId) ? EVENT_PAYLOAD_SCHEMAS[eventId] : 'OutputPayload';
      return bodyFor(schema, known).map((body) => ({
        path: `/process/${encodeURIComponent(pid)}/${encodeURIComponent(eventId)}`,
        body,
      }));
    });
  }
  const path = op.path.includes('{id}')
    ? id.map((pid) => op.path.replace('{id}', encodeURIComponent(pid)))
    : fc.constant(op.path);
  if (op.body === undefined) return path.map((p) => ({ path: p }));
  return fc.tuple(path, bodyFor(op.body, known)).map(([p, body]) => ({ path: p, body }));
}

/** Requests for one `/process` operation: its method, or now and then one the path does not take. */
export function processRequestArbitrary(
  op: ProcessApiOperation,
  known: KnownProcesses,
  key: string,
): fc.Arbitrary<GeneratedRequest> {
  const allowed = allowedMethods(pathTemplates(PROCESS_API_OPERATIONS), op.path.replace(/\{[^}]+\}/g, 'x'));
  const others = ['PATCH', 'PUT', 'DELETE', 'POST', 'OPTIONS'].filter((m) => !allowed.includes(m));
  const method = fc.oneof(
    { weight: 25, arbitrary: fc.constant(op.method) },
    { weight: 1, arbitrary: fc.constantFrom(...others) },
  );
  const tenant = fc.oneof(
    { weight: 6, arbitrary: fc.constant('prop-tenant') },
    { weight: 1, arbitrary: fc.constantFrom('other-tenant', '') },
  );
  const auth = fc.oneof(
    { weight: 20, arbitrary: fc.constant(key) },
    { weight: 1, arbitrary: fc.constant(`${key}-wrong`) },
  );
  const recursive = fc.option(fc.constantFrom('true', 'false', 'TRUE', '1', '\u0000'));
  return fc
    .record({ method, parts: partsOf(op, known), tenant, auth, recursive })
    .map(({ method: m, parts, tenant: t, auth: k, recursive: r }) => {
      const query = op.name === 'children' && r !== null ? `?recursive=${encodeURIComponent(r)}` : '';
      const sent = m === 'GET' || m === 'HEAD' ? undefined : parts.body;
      const headers: Record<string, string> = {
        'X-Process-Management-Key': k,
        'x-fw-tenant-id': t,
        ...(sent ? { 'Content-Type': sent.contentType } : {}),
      };
      return {
        operationId: op.name,
        method: m,
        url: `${parts.path}${query}`,
        headers,
        ...(sent ? { body: sent.body } : {}),
      };
    });
}
