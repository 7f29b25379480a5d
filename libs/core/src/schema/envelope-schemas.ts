/**
 * The framework envelope (see ../../README.md#response-envelope) as JSON Schemas, for OpenAPI documents: closed objects
 * listing exactly what `successEnvelope` and `errorEnvelope` write, so every package documents
 * the same envelope and a document validates the answers strictly.
 *
 * @example
 * const answer = successEnvelopeSchema({ $ref: '#/components/schemas/Process' });
 */

type Schema = Record<string, unknown>;

const SEVERITY: Schema = { type: 'string', enum: ['ERROR', 'WARN', 'INFO'] };

/**
 * `{ success: false, code, severity, subErrorCode, legacyCode?, description, message, payload: null, errors }`;
 * never a stack trace.
 */
export const ERROR_ENVELOPE_SCHEMA: Schema = {
  type: 'object',
  description: 'The framework error envelope; the HTTP status equals code; never a stack trace',
  properties: {
    success: { const: false },
    code: { type: 'integer', minimum: 400, maximum: 599 },
    severity: SEVERITY,
    subErrorCode: { type: 'string' },
    legacyCode: {
      type: 'string',
      description: 'The former spelling of a renamed subErrorCode (kept for one release)',
    },
    description: { type: 'string' },
    message: { type: 'string', description: 'The same text as description' },
    payload: { type: 'null' },
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          subErrorCode: { type: 'string' },
          description: { type: 'string' },
          params: { type: 'array' },
          field: { type: 'string' },
          severity: SEVERITY,
        },
        required: ['code', 'subErrorCode', 'description', 'params', 'severity'],
        additionalProperties: false,
      },
    },
  },
  required: ['success', 'code', 'severity', 'subErrorCode', 'description', 'message', 'payload', 'errors'],
  additionalProperties: false,
};

/** `{ success: true, code, payload }` with the payload's schema. */
export function successEnvelopeSchema(payload: Schema): Schema {
  return {
    type: 'object',
    properties: { success: { const: true }, code: { type: 'integer', minimum: 200, maximum: 299 }, payload },
    required: ['success', 'code', 'payload'],
    additionalProperties: false,
  };
}
