// The `@fw/service/mcp` entry point: `/mcp` for a registry. Needs `@modelcontextprotocol/sdk`
// (an optional peer: hosts without MCP do not install it).
export { makeMcpRouter, toolNameOf } from './mcp/mcp-router';
export type { McpRouterOptions } from './mcp/mcp-router';
