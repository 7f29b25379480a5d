// The schemas and the types describe the same fields: a sample of each type has exactly the
// properties its schema declares, and every required one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CREATE_REQUEST_SCHEMA,
  ENTITY_SCHEMA,
  GET_REQUEST_SCHEMA,
  OP1_REQUEST_SCHEMA,
  OP1_RESPONSE_SCHEMA,
  SERVICE_NAME,
  type Create{{servicePascal}}Request,
  type Get{{servicePascal}}Request,
  type JsonSchema,
  type {{servicePascal}}Entity,
  type {{servicePascal}}Op1Request,
  type {{servicePascal}}Op1Response,
} from '../src/index';

// Every field filled in, so the keys are all the type's fields.
const entity: Required<{{servicePascal}}Entity> = { id: 'a1', name: 'first', quantity: 3, createdAt: '2025-01-01T00:00:00.000Z' };
const create: Required<Create{{servicePascal}}Request> = { name: 'first', quantity: 3 };
const get: Required<Get{{servicePascal}}Request> = { id: 'a1' };
const op1: Required<{{servicePascal}}Op1Request> = { id: 'a1', delta: -1 };
const op1Response: Required<{{servicePascal}}Op1Response> = { id: 'a1', previousQuantity: 3, quantity: 2 };

const cases: Array<[string, JsonSchema, object]> = [
  ['entity', ENTITY_SCHEMA, entity],
  ['create request', CREATE_REQUEST_SCHEMA, create],
  ['get request', GET_REQUEST_SCHEMA, get],
  ['op1 request', OP1_REQUEST_SCHEMA, op1],
  ['op1 response', OP1_RESPONSE_SCHEMA, op1Response],
];

for (const [what, schema, sample] of cases) {
  test(`the ${what} schema declares exactly the fields of its type and refuses others`, () => {
    const properties = Object.keys(schema.properties as Record<string, unknown>).sort();
    assert.deepEqual(properties, Object.keys(sample).sort());
    for (const name of schema.required as string[]) assert.ok(properties.includes(name), `${name} is required but not declared`);
    assert.equal(schema.additionalProperties, false);
  });
}

test('the service name is a route segment', () => {
  assert.match(SERVICE_NAME, /^[a-z][a-z0-9-]*$/);
});
