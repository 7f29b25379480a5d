// enableMCP=y: /mcp lists every operation as a tool and runs one, through the SDK's own client.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { authHeaders, start, type Running } from './support';

let host: Running;
before(async () => {
  host = await start();
});
after(() => host.close());

it('lists the notes operations as tools and calls one', async () => {
  const headers = await authHeaders();
  const client = new Client({ name: '{{monolithKebab}}-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), { requestInit: { headers } }));
  try {
    assert.equal(client.getServerVersion()?.name, '{{mcpServerName}}');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('{{monolithKebab}}-notes__create'), names.join());
    const result = await client.callTool({ name: '{{monolithKebab}}-notes__create', arguments: { text: 'from mcp' } });
    assert.notEqual(result.isError, true);
    assert.match(JSON.stringify(result.content), /from mcp/);
  } finally {
    await client.close();
  }
});
