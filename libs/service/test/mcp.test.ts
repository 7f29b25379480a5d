import { makeServiceRegistry } from '@fw/service';
import { makeMcpRouter } from '@fw/service/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calls, echoService, ticketService } from './fixtures';

describe('/mcp (Streamable HTTP), driven by the SDK client', () => {
  let server: Server;
  let url: URL;
  beforeAll(async () => {
    const registry = makeServiceRegistry({
      host: { name: 'mcp-host', version: '1.0.0' },
      services: [ticketService(), echoService],
    });
    const app = express().use(makeMcpRouter(registry, { instructions: 'Tickets and echo' }));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });

  async function connected(): Promise<Client> {
    const client = new Client({ name: 'fw-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-fw-tenant-id': 'acme' } } }),
    );
    return client;
  }

  it("lists every operation as a tool with the operation's input schema", async () => {
    const client = await connected();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        'tickets__create',
        'tickets__get',
        'tickets__explode',
        'tickets__count',
        'echo__echo',
      ]);
      expect(tools[0]).toMatchObject({
        description: 'Opens a ticket',
        inputSchema: { type: 'object', required: ['title'] },
      });
      expect(client.getInstructions()).toBe('Tickets and echo');
    } finally {
      await client.close();
    }
  });

  it('calls a tool through the interceptor chain, with the tenant; a bad input or a failure is an error result without internals', async () => {
    const client = await connected();
    try {
      calls.length = 0;
      const created = await client.callTool({ name: 'tickets__create', arguments: { title: 'from an agent' } });
      expect(created.isError).toBeFalsy();
      expect(JSON.parse((created.content as Array<{ text: string }>)[0].text)).toEqual({
        id: 1,
        title: 'from an agent',
        tenant: 'acme',
      });
      expect(calls).toEqual([
        'service-level:before',
        'operation-level:before',
        'operation-level:after',
        'service-level:after',
      ]);
      const refused = await client.callTool({ name: 'tickets__create', arguments: { title: '' } });
      expect(refused.isError).toBe(true);
      expect((refused.content as Array<{ text: string }>)[0].text).toBe(
        "SVC400: 'input.title' must NOT have fewer than 1 characters",
      );
      const exploded = await client.callTool({ name: 'tickets__explode', arguments: {} });
      expect(exploded).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'FW500: Internal server error' }],
      });
    } finally {
      await client.close();
    }
  });
});
