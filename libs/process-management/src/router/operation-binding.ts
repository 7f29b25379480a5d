/**
 * Binds handlers to the operations of the table in `openapi/admin-api-operations.ts`: the route's
 * method and path come from the table, and before the handler runs its query parameters and JSON
 * body are checked against the operation's schemas (400 whose `message` names the field). A handler
 * therefore only sees requests its OpenAPI description allows.
 *
 * @example
 * const bind = makeOperationBinder(router, validators);
 * bind('addCrontab', async (req, res) => { const body = req.body as CrontabInputBody; ... });
 */
import type { Request, RequestHandler, Router } from 'express';
import { badRequest } from '../http/management-errors';
import { operationById, type AdminApiOperation } from '../openapi/admin-api-operations';
import type { JsonSchema } from '../openapi/json-schema';
import type { ComponentValidators } from '../openapi/schema-validator';
import type { OperationGate } from './operation-gate';

export type OperationBinder = (operationId: string, handler: RequestHandler) => void;

/** `/crontabs/{id}` → `/crontabs/:id`. */
export function expressPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** The declared query parameters as one object schema (undeclared parameters are ignored). */
function querySchemaOf(op: AdminApiOperation): JsonSchema | undefined {
  if (op.query === undefined || op.query.length === 0) return undefined;
  const properties: Record<string, JsonSchema> = {};
  for (const parameter of op.query) properties[parameter.name] = parameter.schema;
  return { type: 'object', properties };
}

/** Query values are text: a whole number becomes a number where the schema wants an integer. */
function declaredQuery(op: AdminApiOperation, query: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const parameter of op.query ?? []) {
    const raw = query[parameter.name];
    if (raw === undefined) continue;
    values[parameter.name] =
      parameter.schema.type === 'integer' && typeof raw === 'string' && /^-?\d{1,16}$/.test(raw) ? Number(raw) : raw;
  }
  return values;
}

/** The 400 a request deserves against the operation's schemas, or undefined. */
function requestProblem(op: AdminApiOperation, validators: ComponentValidators): (req: Request) => Error | undefined {
  const querySchema = querySchemaOf(op);
  return (req) => {
    const queryProblem =
      querySchema === undefined
        ? undefined
        : validators.checkSchema(querySchema, declaredQuery(op, req.query as Record<string, unknown>), 'query');
    const bodyProblem =
      queryProblem !== undefined || op.body === undefined ? undefined : validators.check(op.body, req.body, '');
    const problem = queryProblem ?? bodyProblem;
    return problem === undefined ? undefined : badRequest(problem);
  };
}

function requestCheck(op: AdminApiOperation, validators: ComponentValidators): RequestHandler {
  const problemOf = requestProblem(op, validators);
  return (req, _res, next) => {
    next(problemOf(req));
  };
}

/**
 * Makes the binder of `router`. With a `gate` (the access and audit gate of the router), each
 * handler runs behind it: role and tenant first, then the request check, then the handler.
 */
export function makeOperationBinder(
  router: Router,
  validators: ComponentValidators,
  gate?: OperationGate,
): OperationBinder {
  return (operationId, handler) => {
    const op = operationById(operationId);
    if (gate === undefined) router[op.method](expressPath(op.path), requestCheck(op, validators), handler);
    else router[op.method](expressPath(op.path), gate(op, requestProblem(op, validators), handler));
  };
}
