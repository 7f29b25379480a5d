/**
 * One arbitrary of whole HTTP requests per operation of the administration API, generated from
 * the operation table and the component schemas of its OpenAPI document: path parameters, query
 * parameters, headers and JSON body, each valid most of the time and hostile now and then (see
 * hostile-values.ts), with a few malformed bodies and wrong content types.
 */
import fc from 'fast-check';
import { ADMIN_API_OPERATIONS, ADMIN_API_SCHEMAS, type AdminApiOperation, type JsonSchema } from '../../src';
import { allowedMethods, pathTemplates } from '@fw/core';
import { deepJsonText, hostileQueryValue, hostileString } from './hostile-values';
import { schemaArbitrary, type JsonValue } from './schema-arbitraries';

export interface GeneratedRequest {
  operationId: string;
  method: string;
  /** Path with its query string, parameters percent-encoded. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Records the server holds when the run starts, so valid requests find something. */
export interface KnownRecords {
  definitionNames: readonly string[];
  crontabIds: readonly string[];
  processIds: readonly string[];
  triggerIds: readonly string[];
}

/** Mostly valid values, some refused by the checks a schema cannot state. */
function mostly<T>(valid: readonly T[], invalid: readonly T[]): fc.Arbitrary<T> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom(...invalid) },
  );
}

const CRON_EXPRESSIONS = mostly(
  ['0 0 1 * * *', '*/30 * * * * *', '0 */5 * * * *', '0 0 2 * * 1-5', ' 0  0 3 * * * '],
  ['99 * * * * *', '* * * *', '0 0 0 31 2 *'],
);
const TIME_ZONES = mostly(
  ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata'],
  ['Mars/Olympus', 'utc', 'Europe/'],
);
const INPUT_SCHEMAS: JsonValue[] = [
  null,
  { type: 'object' },
  { type: 'object', required: ['day'], properties: { day: { type: 'integer', minimum: 1 } } },
  { type: 'nope' },
  { $ref: '#/nowhere' },
];
const uuid = fc.uuid({ version: 4 });

function hintsOf(known: KnownRecords): Record<string, fc.Arbitrary<JsonValue>> {
  const shortName = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
  const definitionName = fc.oneof(fc.constantFrom(...known.definitionNames), shortName);
  return {
    processDefName: mostly(
      known.definitionNames.filter((n) => n !== 'chunk'),
      ['chunk', 'no-such-definition'],
    ),
    processType: definitionName,
    parentProcessType: fc.option(definitionName),
    predecessorProcessType: fc.option(definitionName),
    cronExpression: CRON_EXPRESSIONS,
    timezone: TIME_ZONES,
    name: shortName,
    triggerId: fc.option(shortName),
    inputSchema: fc.constantFrom(...INPUT_SCHEMAS),
    args: fc.option(
      fc.dictionary(
        fc.constantFrom('day', 'text', 'n'),
        fc.oneof(fc.integer({ min: -2, max: 5 }), fc.string({ maxLength: 8 })),
        { maxKeys: 2 },
      ),
    ),
  };
}

function encodable(text: string): boolean {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

function pathParameter(op: AdminApiOperation, name: string, known: KnownRecords): fc.Arbitrary<string> {
  const records = op.path.startsWith('/crontabs')
    ? known.crontabIds
    : op.path.startsWith('/definitions')
      ? known.definitionNames
      : known.processIds;
  const valid = records.length > 0 ? fc.oneof(fc.constantFrom(...records), uuid) : uuid;
  // '.' and '..' would be resolved away by the URL itself, and a lone surrogate cannot be put in
  // a URL at all: neither would reach the server as a name.
  const hostile = hostileString.filter((s) => s !== '' && s !== '.' && s !== '..' && s.length < 10_000 && encodable(s));
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 2, arbitrary: hostile },
    { weight: 1, arbitrary: fc.constant(name) },
  );
}

function queryArbitrary(op: AdminApiOperation, known: KnownRecords): fc.Arbitrary<Array<[string, string]>> {
  const entries = (op.query ?? []).map((parameter) => {
    const hint =
      parameter.name === 'processId' || parameter.name === 'parentId' || parameter.name === 'predecessorId'
        ? fc.constantFrom(...known.processIds)
        : parameter.name === 'triggerId'
          ? fc.constantFrom(...known.triggerIds)
          : undefined;
    const fromSchema = schemaArbitrary(parameter.schema, { components: ADMIN_API_SCHEMAS, hostile: false }).map(String);
    const valid = hint === undefined ? fromSchema : fc.oneof(hint, fromSchema);
    const value = fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: hostileQueryValue });
    return fc.option(
      value.map((v): Array<[string, string]> =>
        Array.isArray(v) ? v.map((item): [string, string] => [parameter.name, item]) : [[parameter.name, v]],
      ),
      { freq: 2 },
    );
  });
  return fc.tuple(...entries).map((parts) => parts.flatMap((p) => p ?? []));
}

/** A body valid but for one place nested far too deep (the place each body leaves open: args, inputSchema). */
const DEEP_BODIES: Record<string, (deep: string) => string> = {
  TriggerRequest: (deep) => `{"payload":{"processDefName":"single","args":{"deep":${deep}}}}`,
  CrontabInput: (deep) =>
    `{"name":"deep","cronExpression":"0 0 1 * * *","payload":{"processDefName":"single","args":{"deep":${deep}}}}`,
  CrontabUpdate: (deep) => `{"payload":{"processDefName":"single","args":{"deep":${deep}}}}`,
  DefinitionInput: (deep) => `{"processType":"deep","leaf":true,"inputSchema":{"deep":${deep}}}`,
  DefinitionUpdate: (deep) => `{"leaf":true,"inputSchema":{"deep":${deep}}}`,
};

function bodyArbitrary(
  op: AdminApiOperation,
  known: KnownRecords,
): fc.Arbitrary<{ body?: string; contentType?: string }> {
  if (op.body === undefined)
    return fc.oneof(
      { weight: 9, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: fc.constant({ body: '{}', contentType: 'application/json' }) },
    );
  const json = schemaArbitrary(
    { $ref: `#/components/schemas/${op.body}` },
    { components: ADMIN_API_SCHEMAS, hostile: true, hints: hintsOf(known) },
  );
  return fc.oneof(
    { weight: 20, arbitrary: json.map((value) => ({ body: JSON.stringify(value), contentType: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{"payload":', '', 'null', '[]', '"text"', '{"a":1}{', '\u0000')
        .map((body) => ({ body, contentType: 'application/json' })),
    },
    { weight: 1, arbitrary: json.map((value) => ({ body: JSON.stringify(value), contentType: 'text/plain' })) },
    {
      weight: 1,
      arbitrary: deepJsonText.map((deep) => ({
        body: DEEP_BODIES[op.body as string](deep),
        contentType: 'application/json',
      })),
    },
  );
}

function headersArbitrary(key: string, tenant: string): fc.Arbitrary<Record<string, string>> {
  return fc.oneof(
    { weight: 30, arbitrary: fc.constant({ 'X-Process-Management-Key': key, 'x-fw-tenant-id': tenant }) },
    { weight: 1, arbitrary: fc.constant({ 'X-Process-Management-Key': key }) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('a b', 'x'.repeat(129), 't/1', '', 'ü')
        .map((bad) => ({ 'X-Process-Management-Key': key, 'x-fw-tenant-id': encodeURIComponent(bad) })),
    },
    { weight: 1, arbitrary: fc.constant({ 'X-Process-Management-Key': `${key}-wrong`, 'x-fw-tenant-id': tenant }) },
    { weight: 1, arbitrary: fc.constant({ 'x-fw-tenant-id': tenant }) },
  );
}

/** Requests for one operation: its method, or now and then another one (405). */
export function requestArbitrary(
  op: AdminApiOperation,
  basePath: string,
  known: KnownRecords,
  credentials: { key: string; tenant: string },
): fc.Arbitrary<GeneratedRequest> {
  const params = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  // Other methods only where the path does not take them (a DELETE sent to a GET test would delete).
  const allowed = allowedMethods(pathTemplates(ADMIN_API_OPERATIONS), op.path.replace(/\{[^}]+\}/g, 'x'));
  const others = ['PATCH', 'PUT', 'DELETE', 'POST', 'OPTIONS'].filter((m) => !allowed.includes(m));
  const method = fc.oneof(
    { weight: 25, arbitrary: fc.constant(op.method.toUpperCase()) },
    { weight: 1, arbitrary: fc.constantFrom(...others) },
  );
  return fc
    .record({
      method,
      values: fc.tuple(...params.map((p) => pathParameter(op, p, known))),
      query: queryArbitrary(op, known),
      headers: headersArbitrary(credentials.key, credentials.tenant),
      body: bodyArbitrary(op, known),
    })
    .map(({ method: m, values, query, headers, body }) => {
      let path = op.path;
      params.forEach((p, i) => (path = path.replace(`{${p}}`, encodeURIComponent(values[i]))));
      const search = new URLSearchParams(query).toString();
      // fetch sends no body with GET or HEAD.
      const sent = m === 'GET' || m === 'HEAD' ? {} : body;
      const all = sent.contentType === undefined ? headers : { ...headers, 'Content-Type': sent.contentType };
      return {
        operationId: op.operationId,
        method: m,
        url: `${basePath}${path}${search === '' ? '' : `?${search}`}`,
        headers: all,
        ...(sent.body === undefined ? {} : { body: sent.body }),
      };
    });
}

/** Every operation of the table (the property tests cover them all). */
export const OPERATIONS: readonly AdminApiOperation[] = ADMIN_API_OPERATIONS;
export type { JsonSchema };
