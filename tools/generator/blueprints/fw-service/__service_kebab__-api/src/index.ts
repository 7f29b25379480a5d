// The contract of {{service}}: what callers send and get back. The TypeScript types are for code
// that calls the service (in-process or through its client); the JSON Schemas are what the service
// checks every input and output against at run time (@fw/service validates them with ajv), and
// what /openapi.json and /mcp publish. Change both together: test/contract.test.ts checks that
// every schema lists exactly the fields of its type.

/** The service's name: its route (`/{{serviceKebab}}`), its name in /info and in the service proxy. */
export const SERVICE_NAME = '{{serviceKebab}}';
export const SERVICE_VERSION = '{{serviceVersion}}';

/** A JSON Schema object, as @fw/service takes it. */
export type JsonSchema = Record<string, unknown>;

/** One stored {{service}} record. */
export interface {{servicePascal}}Entity {
  /** Assigned by the service (a UUID). */
  id: string;
  name: string;
  /** Never negative: op1 refuses a change that would make it so. */
  quantity: number;
  /** ISO 8601 instant of creation. */
  createdAt: string;
}

/** POST /{{serviceKebab}} */
export interface Create{{servicePascal}}Request {
  name: string;
  /** Default 0. */
  quantity?: number;
}

/** GET /{{serviceKebab}}/{id} */
export interface Get{{servicePascal}}Request {
  id: string;
}

/** POST /{{serviceKebab}}/op1: the sample business operation, a quantity change that may not go below zero. */
export interface {{servicePascal}}Op1Request {
  id: string;
  /** Added to the quantity (negative to take away). */
  delta: number;
}

export interface {{servicePascal}}Op1Response {
  id: string;
  previousQuantity: number;
  quantity: number;
}

/** Ids are UUIDs when the service makes them; anything URL-safe is accepted on reads. */
const ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' };
const QUANTITY = { type: 'integer', minimum: 0, maximum: 1_000_000_000 };

export const ENTITY_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'quantity', 'createdAt'],
  properties: {
    id: ID,
    name: { type: 'string', minLength: 1, maxLength: 200 },
    quantity: QUANTITY,
    createdAt: { type: 'string', minLength: 20 },
  },
};

export const CREATE_REQUEST_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, description: 'What the record is called' },
    quantity: { ...QUANTITY, description: 'Starting quantity (default 0)' },
  },
};

export const GET_REQUEST_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: ID },
};

export const OP1_REQUEST_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'delta'],
  properties: {
    id: ID,
    delta: { type: 'integer', minimum: -1_000_000_000, maximum: 1_000_000_000, description: 'Added to the quantity; the result may not be negative' },
  },
};

export const OP1_RESPONSE_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'previousQuantity', 'quantity'],
  properties: { id: ID, previousQuantity: QUANTITY, quantity: QUANTITY },
};

/** Sub-error codes the service answers besides @fw/service's own (SVC400, SVC401, …). */
export const {{serviceConstant}}_ERROR_CODES = {
  /** GET or op1 of an id that does not exist (for the caller's tenant): 404. */
  notFound: '{{serviceConstant}}_404',
  /** op1 would make the quantity negative: 422, nothing changed. */
  negativeQuantity: '{{serviceConstant}}_422',
} as const;
