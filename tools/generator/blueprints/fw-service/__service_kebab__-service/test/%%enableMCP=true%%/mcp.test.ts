// /mcp: the operations as MCP tools over Streamable HTTP, driven by the official SDK client — the
// tools are listed with the operations' input schemas, and a call runs the operation through the
// same checks and interceptors as HTTP.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { {{servicePascal}}Entity } from '{{scope}}/{{serviceKebab}}-api';
import type { Running{{servicePascal}}Host } from '../src/host';
import { callerHeaders, startTestHost, TENANT } from './support';

let host: Running{{servicePascal}}Host;

before(async () => {
  host = await startTestHost();
});

after(() => host.close());

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: '{{serviceKebab}}-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), { requestInit: { headers } }));
  return client;
}

test('lists create, read and op1 as tools and calls one', async () => {
  const client = await connect(await callerHeaders());
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['{{serviceKebab}}__create', '{{serviceKebab}}__read', '{{serviceKebab}}__op1'].map((n) => n.replace(/[^A-Za-z0-9_-]/g, '_')));
    assert.deepEqual(tools[0].inputSchema.required, ['name']);
    const result = await client.callTool({ name: tools[0].name, arguments: { name: 'from an agent', quantity: 4 } });
    assert.ok(!result.isError, JSON.stringify(result));
    const created = JSON.parse((result.content as Array<{ text: string }>)[0].text) as {{servicePascal}}Entity;
    assert.equal(created.quantity, 4);
    // Stored for the tenant the MCP client sent, like an HTTP call.
    assert.equal((await host.repository.get(TENANT, created.id))?.name, 'from an agent');
    const refused = await client.callTool({ name: tools[2].name, arguments: { id: created.id, delta: -5 } });
    assert.equal(refused.isError, true);
    assert.match((refused.content as Array<{ text: string }>)[0].text, /^{{serviceConstant}}_422: /);
  } finally {
    await client.close();
  }
});
{{#security}}

test('without a bearer token a tool call is refused like any other call', async () => {
  const client = await connect({ 'x-fw-tenant-id': TENANT });
  try {
    const result = await client.callTool({ name: '{{serviceKebab}}__create'.replace(/[^A-Za-z0-9_-]/g, '_'), arguments: { name: 'anonymous' } });
    assert.equal(result.isError, true);
    assert.match((result.content as Array<{ text: string }>)[0].text, /^SVC401: /);
  } finally {
    await client.close();
  }
});
{{/security}}
