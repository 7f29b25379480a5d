import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as api from '../src/index';

test('every process type has an input schema that accepts its sample and refuses a wrong type', () => {
{{#processes}}
  assert.deepEqual(api.{{inputType}}Schema.parse({{{sampleArgsJson}}}, 'input'), {{{sampleArgsJson}}});
{{/processes}}
  assert.equal(api.PROCESS_TYPES.length, {{processes.length}});
});
{{#processes}}
{{#fields.0}}

test('{{processType}}: a field of the wrong type is refused, naming the field', () => {
  const input: Record<string, unknown> = { ...{{{sampleArgsJson}}} };
  input['{{fields.0.name}}'] = [];
  assert.throws(() => api.{{inputType}}Schema.parse(input, 'input'), /input\.{{fields.0.name}}/);
});
{{/fields.0}}
{{/processes}}
