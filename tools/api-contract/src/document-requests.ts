/**
 * Requests made from a served document: for every operation, its path, query and header
 * parameters and its JSON body drawn from their schemas (`schemaArbitrary` of `@fw/test-support`), and sent to the
 * host over HTTP. A host whose document is as strict as its checks never answers such a request
 * 400.
 *
 * @example
 * const operations = documentOperations(doc);
 * const requests = fc.sample(requestArbitrary(doc, operations[0], hints), { seed: 1, numRuns: 40 });
 */
import fc from 'fast-check';
import type { OpenApiJson } from './contract-hosts';
import { resolveRef, schemaArbitrary, type JsonValue, type SchemaArbitraryOptions } from '@fw/test-support';

type Schema = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** One operation of the document. */
export interface DocumentOperation {
  method: (typeof METHODS)[number];
  /** The path template (`/process/{id}`). */
  template: string;
  parameters: Array<{ name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema }>;
  /** The JSON body's schema, when the operation takes one. */
  body: Schema | undefined;
}

/** A request ready to send. */
export interface GeneratedRequest {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: JsonValue | undefined;
}

/**
 * Values to use by name: body properties (`processDefName`) and parameters (`path:id`,
 * `query:processId`, `header:x-fw-tenant-id`); a key prefixed with an operation
 * (`PUT /definitions/{name} processType`) holds for that operation only and comes first.
 */
export type RequestHints = Record<string, fc.Arbitrary<JsonValue | undefined>>;

/** The hints of one operation: its own first, then the general ones. */
function hintsFor(operation: string, hints: RequestHints): RequestHints {
  const own: RequestHints = {};
  const general: RequestHints = {};
  for (const [key, value] of Object.entries(hints)) {
    if (key.startsWith(`${operation} `)) own[key.slice(operation.length + 1)] = value;
    else if (!/^[A-Z]+ \//.test(key)) general[key] = value;
  }
  return { ...general, ...own };
}

/** Every operation of `document`, its parameters resolved. */
export function documentOperations(document: OpenApiJson): DocumentOperation[] {
  const operations: DocumentOperation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method] as { parameters?: Schema[]; requestBody?: Schema } | undefined;
      if (op === undefined) continue;
      const parameters = (op.parameters ?? []).map((p) =>
        typeof p.$ref === 'string' ? resolveRef(document, p.$ref) : p,
      ) as DocumentOperation['parameters'];
      const content = (op.requestBody?.content ?? {}) as Record<string, { schema?: Schema }>;
      operations.push({ method, template, parameters, body: content['application/json']?.schema });
    }
  }
  return operations;
}

/** Whether the operation reads anything from the request (a body or a parameter). */
export function takesInput(op: DocumentOperation): boolean {
  return op.body !== undefined || op.parameters.length > 0;
}

function text(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A value an HTTP header can carry: visible ASCII and inner spaces (a header is not free text). */
const headerSafe = (value: string): boolean => /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value);

/** Requests for `op`: every required parameter, some optional ones, and a body from its schema. */
export function requestArbitrary(
  document: OpenApiJson,
  op: DocumentOperation,
  allHints: RequestHints,
  baseHeaders: Record<string, string>,
): fc.Arbitrary<GeneratedRequest> {
  const operation = `${op.method.toUpperCase()} ${op.template}`;
  const hints = hintsFor(operation, allHints);
  const options: SchemaArbitraryOptions = { document, hints };
  const parameterValues: Record<string, fc.Arbitrary<JsonValue | undefined>> = {};
  for (const p of op.parameters) {
    const key = `${p.in}:${p.name}`;
    // An operation's own hint decides whether the parameter is sent at all (undefined: not sent).
    const own = allHints[`${operation} ${key}`];
    if (own !== undefined) {
      parameterValues[key] = own;
      continue;
    }
    let value = hints[key] ?? schemaArbitrary(p.schema, options);
    if (p.in === 'header') value = value.filter((v) => v === undefined || headerSafe(text(v)));
    if (p.in === 'path')
      value = value.filter((v) => v === undefined || (text(v) !== '' && text(v) !== '.' && text(v) !== '..'));
    parameterValues[key] = p.required ? value : fc.option(value, { nil: undefined });
  }
  const body = op.body === undefined ? fc.constant(undefined) : schemaArbitrary(op.body, options);
  return fc.record({ parameters: fc.record(parameterValues), body }).map(({ parameters, body: value }) => {
    let path = op.template;
    const query = new URLSearchParams();
    const headers: Record<string, string> = { ...baseHeaders };
    for (const p of op.parameters) {
      const v = parameters[`${p.in}:${p.name}`];
      if (v === undefined) continue;
      if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(text(v)));
      else if (p.in === 'query') query.append(p.name, text(v));
      else headers[p.name] = text(v);
    }
    const search = query.toString();
    return {
      operation,
      method: op.method.toUpperCase(),
      path: search === '' ? path : `${path}?${search}`,
      headers,
      body: value,
    };
  });
}

/** The answer to a generated request: its status and the start of its body. */
export interface SentRequest {
  request: GeneratedRequest;
  status: number;
  answer: string;
}

/** Sends `request` to the host at `baseUrl`. */
export async function sendRequest(baseUrl: string, request: GeneratedRequest): Promise<SentRequest> {
  const init: RequestInit = {
    method: request.method,
    headers: request.body === undefined ? request.headers : { ...request.headers, 'Content-Type': 'application/json' },
  };
  if (request.body !== undefined) init.body = JSON.stringify(request.body);
  const response = await fetch(`${baseUrl}${request.path}`, init);
  return { request, status: response.status, answer: (await response.text()).slice(0, 400) };
}
