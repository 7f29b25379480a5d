/**
 * Checks answers against an OpenAPI 3.1 document: finds the operation by method and path
 * template, then checks that the status is documented, the body matches the documented schema
 * (strictly: the schemas close their objects), a documented bodiless answer has no body, and
 * documented required headers are present. A method the path does not list must be a 405 with
 * `Allow` naming the methods it does (the path's `x-fw-method-not-allowed` answer), or an
 * answer the path documents before the method matters (401 without the key). Used by
 * the integration and property tests of the administration API and of the admin server, so an
 * answer drifting from the document fails CI.
 *
 * @example
 * const contract = makeResponseContract(buildOpenApiDocument());
 * contract.problemsOf({ method: 'GET', path: '/process-management/api/info', status: 200, contentType: 'application/json', text: '{"x":1}', headers: {} });
 * // ["GET /process-management/api/info 200: body must have required property 'definitionSource'", ...]
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { allowedMethods, pathTemplates, templatePattern } from '@fw/core';
import type { JsonSchema } from './json-schema';
import { addComponents, anchorReferences, fieldOf, makeSchemaAjv, sentenceOf } from './schema-validator';

/** The parts of an OpenAPI document the contract reads. */
export interface OpenApiLike {
  /** Path items; each may carry `x-fw-method-not-allowed`, the answer to a method it does not list. */
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, JsonSchema>; responses?: Record<string, unknown> };
}

/** One answer as the client received it. */
export interface ReceivedAnswer {
  method: string;
  /** The request path without the query string. */
  path: string;
  status: number;
  contentType: string | undefined;
  /** The raw body ('' when there is none). */
  text: string;
  headers: Record<string, unknown>;
}

export interface ResponseContract {
  /** What is wrong with the answer; empty when it conforms to the document. */
  problemsOf(answer: ReceivedAnswer): string[];
  /** `GET /crontabs/{id}` style key of the operation a request reaches, or undefined. */
  operationOf(method: string, path: string): string | undefined;
}

interface ResponseObject {
  content?: Record<string, { schema?: JsonSchema }>;
  headers?: Record<string, { required?: boolean }>;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows `#/components/responses/X` references. */
function resolveResponse(document: OpenApiLike, value: unknown): ResponseObject | undefined {
  let current = value;
  for (let hops = 0; isRecord(current) && typeof current.$ref === 'string' && hops < 5; hops++) {
    const name = current.$ref.replace('#/components/responses/', '');
    current = document.components?.responses?.[name];
  }
  return isRecord(current) ? (current as ResponseObject) : undefined;
}

/** The most specific documented template with that method: literal segments beat `{params}`. */
function specificity(template: string): [number, number] {
  const params = (template.match(/\{/g) ?? []).length;
  return [params, -template.replace(/\{[^}]+\}/g, '').length];
}

/** The responses object of `template`'s operation for `method` (HEAD is GET's). */
function responsesOf(document: OpenApiLike, template: string, method: string): Record<string, unknown> {
  const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  const operation = document.paths[template]?.[verb];
  return isRecord(operation) && isRecord(operation.responses) ? operation.responses : {};
}

/** The path templates of a document and the operations they hold. */
function makeTemplateIndex(document: OpenApiLike) {
  const templates = Object.keys(document.paths).map((template) => ({ template, pattern: templatePattern(template) }));
  const methodsOf = (template: string): string[] =>
    Object.keys(document.paths[template] ?? {}).filter((k) => HTTP_METHODS.includes(k));
  const allowedIndex = pathTemplates(
    templates.flatMap((t) => methodsOf(t.template).map((method) => ({ method, path: t.template }))),
  );
  const matching = (path: string) => templates.filter((t) => t.pattern.test(path)).map((t) => t.template);
  return {
    matching,
    allowed: (path: string) => allowedMethods(allowedIndex, path),
    /** The template of the operation a request reaches, or undefined when its path does not take the method. */
    operationTemplate(method: string, path: string): string | undefined {
      const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
      const candidates = matching(path).filter((template) => methodsOf(template).includes(verb));
      candidates.sort((a, b) => {
        const [pa, la] = specificity(a);
        const [pb, lb] = specificity(b);
        return pa - pb || la - lb;
      });
      return candidates[0];
    },
    /** An answer the path documents for any of its methods (a 401 comes before the method is looked at). */
    documentedForPath(path: string, status: number): ResponseObject | undefined {
      for (const template of matching(path)) {
        for (const method of methodsOf(template)) {
          const found = resolveResponse(document, responsesOf(document, template, method)[String(status)]);
          if (found !== undefined) return found;
        }
      }
      return undefined;
    },
  };
}

/** Problems of a body against a schema that may reference the document's components (strict ajv, compiled once per schema). */
function makeSchemaCheck(document: OpenApiLike): (schema: JsonSchema, body: unknown) => string[] {
  const ajv = makeSchemaAjv(true);
  const id = addComponents(ajv, { schemas: document.components?.schemas ?? {} });
  const compiled = new WeakMap<JsonSchema, ValidateFunction>();
  return (schema, body) => {
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = ajv.compile(anchorReferences(schema, id) as JsonSchema);
      compiled.set(schema, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? [])
      .slice(0, 8)
      .map((e: ErrorObject) => `${sentenceOf(fieldOf('body', e), e)} (${e.schemaPath})`);
  };
}

/** What is wrong with an answer against one documented response: body, content type, required headers. */
function answerProblems(
  response: ResponseObject,
  answer: ReceivedAnswer,
  checkSchema: (schema: JsonSchema, body: unknown) => string[],
): string[] {
  const problems: string[] = [];
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    if (header.required === true && answer.headers[name.toLowerCase()] === undefined)
      problems.push(`header ${name} is missing`);
  }
  const schema = response.content?.['application/json']?.schema;
  if (answer.method.toUpperCase() === 'HEAD') return problems;
  if (schema === undefined)
    return answer.text === '' ? problems : [...problems, `no body is documented, got ${answer.text.slice(0, 200)}`];
  if (!answer.contentType?.startsWith('application/json'))
    return [...problems, `Content-Type must be application/json, got ${String(answer.contentType)}`];
  try {
    return [...problems, ...checkSchema(schema, JSON.parse(answer.text))];
  } catch {
    return [...problems, `the body is not JSON: ${answer.text.slice(0, 200)}`];
  }
}

export function makeResponseContract(document: OpenApiLike): ResponseContract {
  const index = makeTemplateIndex(document);
  const checkSchema = makeSchemaCheck(document);

  /** A method the path does not list: a 405 with the right Allow, or an answer the path documents before the method matters. */
  const notAllowedProblems = (answer: ReceivedAnswer): string[] => {
    const allowed = index.allowed(answer.path);
    const otherwise =
      answer.status === 405 || answer.status >= 500 ? undefined : index.documentedForPath(answer.path, answer.status);
    if (otherwise !== undefined) return answerProblems(otherwise, answer, checkSchema);
    if (answer.status !== 405)
      return [
        `${answer.method} is not documented for this path (${allowed.join(', ')}): expected 405, got ${answer.status}`,
      ];
    const problems =
      answer.headers.allow === allowed.join(', ')
        ? []
        : [`Allow must be '${allowed.join(', ')}', got '${String(answer.headers.allow)}'`];
    const declared = index
      .matching(answer.path)
      .map((template) => document.paths[template]?.['x-fw-method-not-allowed']);
    const response = resolveResponse(
      document,
      declared.find((d) => d !== undefined),
    );
    if (response === undefined) return [...problems, 'the path describes no 405 answer (x-fw-method-not-allowed)'];
    return [...problems, ...answerProblems(response, answer, checkSchema)];
  };

  return {
    operationOf(method, path) {
      const template = index.operationTemplate(method, path);
      return template === undefined ? undefined : `${method.toUpperCase()} ${template}`;
    },
    problemsOf(answer) {
      const where = `${answer.method.toUpperCase()} ${answer.path} ${answer.status}`;
      if (index.matching(answer.path).length === 0) return [`${where}: no documented path matches`];
      const template = index.operationTemplate(answer.method, answer.path);
      if (template === undefined) return notAllowedProblems(answer).map((p) => `${where}: ${p}`);
      const responses = responsesOf(document, template, answer.method);
      const documented =
        responses[String(answer.status)] ?? responses[`${String(answer.status)[0]}XX`] ?? responses.default;
      const response = resolveResponse(document, documented);
      if (response === undefined)
        return [
          `${where}: status ${answer.status} is not documented for ${answer.method.toUpperCase()} ${template} (documented: ${Object.keys(responses).join(', ')}); body ${answer.text.slice(0, 300)}`,
        ];
      return answerProblems(response, answer, checkSchema).map((p) => `${where} (${template}): ${p}`);
    },
  };
}
