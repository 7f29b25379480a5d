// The echo operation of the `service` bench, shared by the bench and its server process (kept
// apart from service-server.ts, which starts a server when it is loaded).
export const ECHO_SCHEMA = {
  type: 'object',
  required: ['text', 'count'],
  additionalProperties: false,
  properties: {
    text: { type: 'string', minLength: 1, maxLength: 1000 },
    count: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' } },
  },
};
export const BENCH_API_KEY = 'service-bench-key';
