// Public entry point of {{scope}}/{{namespaceKebab}}-query: the module's files (for a host's own
// query config), the standalone start, and the HTTP app.
export { queryModuleFiles, startQueryModule, QUERY_NAME, DEFAULT_TENANT, DEFAULT_DATABASE_URL } from './query-module';
export type { QueryModule, QueryModuleFiles, QueryModuleOptions } from './query-module';
export { makeQueryApp } from './app';
export type { QueryAppOptions } from './app';
{{#security}}
export { makeBearerAuth, rolesOf, MIN_SECRET_LENGTH } from './bearer-auth';
export type { BearerAuthOptions } from './bearer-auth';
{{/security}}
