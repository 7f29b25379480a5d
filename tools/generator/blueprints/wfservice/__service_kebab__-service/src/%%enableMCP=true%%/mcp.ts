// {{service}} for AI agents: /mcp speaks the Model Context Protocol (Streamable HTTP), one tool per
// operation (`{{service}}__create`, `{{service}}__event`, …) with the operation's input schema. Calls
// go through the registry, so they are checked and intercepted exactly like HTTP calls.
import type { ServiceRegistry } from '@fw/service';
import { makeMcpRouter } from '@fw/service/mcp';
import type { Router } from 'express';

export function make{{servicePascal}}McpRouter(registry: ServiceRegistry): Router {
  return makeMcpRouter(registry, {
    name: '{{service}}',
    version: '{{serviceVersion}}',
    instructions: 'The {{service}} workflow: create an entity, read it, send events (see the allowed actions in each answer).',
  });
}
