// /mcp with the SDK's own client: the operations are tools, and a tool call runs the operation
// (validation and interceptors included) like an HTTP call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CREATE_BODY, start, type Running, type WorkflowAnswer } from './support';

describe('{{service}}: MCP', () => {
  let running: Running;
  let client: Client;
  before(async () => {
    running = await start();
    client = new Client({ name: '{{serviceKebab}}-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.baseUrl}/mcp`), { requestInit: { headers: running.headers } }));
  });
  after(async () => {
    await client.close();
    await running.close();
  });

  it('lists one tool per operation and creates through the create tool', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const op of ['create', 'get', 'event', 'testCases']) assert.ok(names.includes(`{{service}}__${op}`.replace(/[^A-Za-z0-9_-]/g, '_')), op);
    const result = await client.callTool({ name: '{{service}}__create'.replace(/[^A-Za-z0-9_-]/g, '_'), arguments: CREATE_BODY });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    const answer = result.structuredContent as unknown as WorkflowAnswer;
    assert.match(answer.mutatedEntity.id, /^[0-9a-f-]{36}$/);
  });

  it('answers a refused call as a tool error', async () => {
    const result = await client.callTool({ name: '{{service}}__get'.replace(/[^A-Za-z0-9_-]/g, '_'), arguments: { id: '00000000-0000-4000-8000-000000000000' } });
    assert.equal(result.isError, true);
  });
});
