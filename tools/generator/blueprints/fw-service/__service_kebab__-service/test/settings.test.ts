// The settings read from the environment: defaults, and what each variable changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSettings } from '../src/settings';

test('defaults: port 8080 on every address{{#jpa}}, a PGlite folder under .data{{/jpa}}', () => {
  const settings = readSettings({});
  assert.equal(settings.port, 8080);
  assert.equal(settings.host, '0.0.0.0');
{{#jpa}}
  assert.equal(settings.database.url, 'pglite:./.data/{{serviceKebab}}');
{{/jpa}}
{{#enableMCP}}
  assert.equal(settings.mcp, true);
{{/enableMCP}}
  assert.equal(settings.infoAccessKey, undefined);
});

test('the environment overrides them; a bad PORT is refused', () => {
  const settings = readSettings({
    PORT: '9090',
    HOST: '127.0.0.1',
{{#jpa}}
    {{serviceConstant}}_DATABASE_URL: 'postgres://db:5432/app',
    {{serviceConstant}}_DATABASE_USERNAME: 'app',
    {{serviceConstant}}_DATABASE_PASSWORD: '',
{{/jpa}}
{{#security}}
    {{serviceConstant}}_JWT_SECRET: 'a-secret',
    {{serviceConstant}}_JWT_AUDIENCE: 'api',
{{/security}}
{{#enableMCP}}
    {{serviceConstant}}_MCP_ENABLED: 'false',
{{/enableMCP}}
    FW_INFO_ACCESS_KEY: 'k'.repeat(32),
  });
  assert.equal(settings.port, 9090);
  assert.equal(settings.host, '127.0.0.1');
{{#jpa}}
  assert.deepEqual(settings.database, { url: 'postgres://db:5432/app', username: 'app', password: '' });
{{/jpa}}
{{#security}}
  assert.deepEqual(settings.jwt, { secret: 'a-secret', jwksUrl: undefined, issuer: undefined, audience: 'api' });
{{/security}}
{{#enableMCP}}
  assert.equal(settings.mcp, false);
{{/enableMCP}}
  assert.equal(settings.infoAccessKey, 'k'.repeat(32));
  assert.throws(() => readSettings({ PORT: 'eighty' }), /PORT must be a port number/);
});
