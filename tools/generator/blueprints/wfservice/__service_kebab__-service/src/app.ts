// The HTTP host of {{service}}: its registry and an express app serving the operations, the
// introspection endpoints, /info, /service-info, /openapi.json{{#enableMCP}} and /mcp{{/enableMCP}}.
import { makeServiceRegistry, makeServiceRouter, type ServiceRegistry } from '@fw/service';
import express, { type Express } from 'express';
{{#enableMCP}}
import { make{{servicePascal}}McpRouter } from './mcp';
{{/enableMCP}}
import { {{serviceCamel}}Services, SERVICE_VERSION, type {{servicePascal}}ServiceOptions } from './service';

export interface {{servicePascal}}App {
  app: Express;
  registry: ServiceRegistry;
}

export async function make{{servicePascal}}App(options: {{servicePascal}}ServiceOptions): Promise<{{servicePascal}}App> {
  const registry = makeServiceRegistry({ host: { name: '{{serviceKebab}}-host', version: SERVICE_VERSION }, services: await {{serviceCamel}}Services(options) });
  const app = express();
  app.disable('x-powered-by');
{{#enableMCP}}
  app.use(make{{servicePascal}}McpRouter(registry));
{{/enableMCP}}
  app.use(makeServiceRouter(registry));
  return { app, registry };
}
