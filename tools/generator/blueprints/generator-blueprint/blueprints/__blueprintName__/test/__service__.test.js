const assert = require('node:assert/strict');
const { test } = require('node:test');
const { greet } = require('../src/{{service}}');

test('{{service}} greets', () => {
  assert.equal(greet('you'), 'hello you, from {{service}}');
});
