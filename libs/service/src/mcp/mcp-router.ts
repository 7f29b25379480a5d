/**
 * MCP for a host: `/mcp` over Streamable HTTP (`@modelcontextprotocol/sdk`, stateless:
 * one server and transport per request) lists every operation of the registry as a tool — named
 * `<service>__<operation>`, its input schema the operation's — and calls it through
 * `registry.invoke`, so the same validation and interceptor chain apply as over HTTP. A failed
 * call is a tool result with `isError: true` and the error's description (never a stack).
 *
 * @example
 * app.use(makeMcpRouter(registry, { name: 'shop', version: '1.0.0', instructions: 'Orders and tickets' }));
 */
import { createLogger, toFwError, type Logger } from '@fw/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import express, { type Router } from 'express';
import type { JsonSchema } from '../definition/service-definition';
import type { ServiceRegistry } from '../registry/service-registry';

export interface McpRouterOptions {
  /** The MCP server's name and version (default: the host's). */
  name?: string;
  version?: string;
  /** Told to the client at initialisation. */
  instructions?: string;
  /** Mount path (default `/mcp`). */
  path?: string;
  logger?: Logger;
}

interface Tool {
  name: string;
  service: string;
  operation: string;
  description: string;
  inputSchema: JsonSchema;
}

/** `orders` + `create-order` → `orders__create-order` (letters, digits, `_`, `-` only). */
export function toolNameOf(service: string, operation: string): string {
  return `${service}__${operation}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** Operations whose input is an object (or absent) become tools. */
function toolsOf(registry: ServiceRegistry): Tool[] {
  const tools: Tool[] = [];
  for (const service of registry.list()) {
    for (const op of service.operations) {
      if (op.input !== undefined && op.input.type !== undefined && op.input.type !== 'object') continue;
      tools.push({
        name: toolNameOf(service.name, op.name),
        service: service.name,
        operation: op.name,
        description: op.description || `${service.name}.${op.name}${op.method ? ` (${op.method} ${op.path})` : ''}`,
        inputSchema: op.input ?? { type: 'object' },
      });
    }
  }
  return tools;
}

function makeMcpServer(
  registry: ServiceRegistry,
  tools: readonly Tool[],
  options: McpRouterOptions,
  call: { headers: Record<string, string>; tenant: string | undefined; logger: Logger },
): Server {
  const { headers, tenant, logger } = call;
  const server = new Server(
    { name: options.name ?? registry.host.name, version: options.version ?? registry.host.version },
    { capabilities: { tools: {} }, ...(options.instructions ? { instructions: options.instructions } : {}) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: { ...t.inputSchema, type: 'object' as const },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (tool === undefined)
      return { isError: true, content: [{ type: 'text' as const, text: `Unknown tool '${request.params.name}'` }] };
    try {
      const output = await registry.invoke(tool.service, tool.operation, request.params.arguments ?? {}, {
        headers,
        tenant,
      });
      return {
        content: [{ type: 'text' as const, text: JSON.stringify(output ?? null) }],
        ...(typeof output === 'object' && output !== null && !Array.isArray(output)
          ? { structuredContent: output as Record<string, unknown> }
          : {}),
      };
    } catch (err) {
      // Mapped (and logged) as over HTTP: an unexpected error says only FW500.
      const error = toFwError(err, logger, { path: `mcp:${tool.name}`, method: 'tools/call' });
      return {
        isError: true,
        content: [{ type: 'text' as const, text: `${error.subErrorCode}: ${error.description}` }],
      };
    }
  });
  return server;
}

export function makeMcpRouter(registry: ServiceRegistry, options: McpRouterOptions = {}): Router {
  const logger = options.logger ?? createLogger({ name: 'mcp' });
  const path = options.path ?? '/mcp';
  const router = express.Router();
  router.post(path, express.json({ limit: '1mb' }), async (req, res) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const tenant =
      typeof req.headers['x-fw-tenant-id'] === 'string' && req.headers['x-fw-tenant-id'] !== ''
        ? req.headers['x-fw-tenant-id']
        : undefined;
    const server = makeMcpServer(registry, toolsOf(registry), options, { headers, tenant, logger });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      logger.error({ err }, 'MCP request failed');
      if (!res.headersSent)
        res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
    }
  });
  // Stateless: no server-initiated stream and no sessions to end.
  const notAllowed = (_req: express.Request, res: express.Response) =>
    void res
      .status(405)
      .set('Allow', 'POST')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed' }, id: null });
  router.get(path, notAllowed);
  router.delete(path, notAllowed);
  return router;
}
