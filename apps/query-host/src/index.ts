// Public entry point of the query host (for tests and hosts embedding it). Every export is listed explicitly.
export { createQueryHost } from './host/query-host';
export type { QueryHost, QueryHostOptions } from './host/query-host';
export { makeHostDatabases } from './host/host-databases';
export type { HostDatabases } from './host/host-databases';
export { parseHostConfig, SERVER_DEFAULTS } from './config/host-config';
export type { HostConfig, ServerConfig } from './config/host-config';
export { prepareDemo, seedDemoDatabase, demoCurl, DEMO_DIR, DEMO_TENANTS } from './demo/demo-setup';
export type { Demo } from './demo/demo-setup';
export { parseHostArgs, startFromCommandLine, QUERY_HOST_USAGE, QUERY_HOST_VERSION, UsageError } from './main-cli';
export type { HostCommand, HostIo } from './main-cli';
