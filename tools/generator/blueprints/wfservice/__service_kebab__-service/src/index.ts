// Public entry point of {{scope}}/{{serviceKebab}}-service.
export { make{{servicePascal}}Service, {{serviceCamel}}Services, ENTITY_SCHEMA, SERVICE_NAME, SERVICE_VERSION } from './service';
export type { {{servicePascal}}ServiceOptions } from './service';
export { make{{servicePascal}}App } from './app';
export type { {{servicePascal}}App } from './app';
export { openStore } from './store';
export type { OpenedStore } from './store';
export { loadFlows, FLOWS_FILE, DEFAULT_FLOW_ID } from './flow';
export { actions, conditions } from './actions';
{{#enablement}}
export { loadEnablement, ENABLEMENT_FILE } from './enablement';
{{/enablement}}
{{#security}}
export { makeBearerInterceptor, bearerOptionsFromEnv } from './security';
export type { BearerOptions } from './security';
{{/security}}
{{#cloudSwitchEnabled}}
export { make{{servicePascal}}Client } from './client';
export type { {{servicePascal}}Client, {{servicePascal}}ClientOptions } from './client';
{{/cloudSwitchEnabled}}
{{#enableMCP}}
export { make{{servicePascal}}McpRouter } from './mcp';
{{/enableMCP}}
