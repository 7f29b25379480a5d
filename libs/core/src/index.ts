export { loadConfigFile, configFromObject } from './config/config-loader';
export type { LoadedConfig, LoadConfigOptions } from './config/config-loader';
export { FwError, isFwError, ConfigError, isConfigError, CoreErrorCodes } from './errors/fw-error';
export type { FwErrorDetail, FwErrorInit, Severity } from './errors/fw-error';
export { successEnvelope, errorEnvelope } from './http/response-envelope';
export type { SuccessEnvelope, ErrorEnvelope, ResponseEnvelope } from './http/response-envelope';
export { makeErrorMiddleware, makeNotFoundHandler, requireJsonBody, toFwError, malformedJsonError, payloadTooLargeError } from './http/error-middleware';
export { makeInfoRouter } from './http/info-router';
export type { ServiceInfo, HealthCheck, InfoRouterOptions } from './http/info-router';
export { createLogger } from './logging/logger';
export type { Logger, LoggerOptions } from './logging/logger';
export { installGracefulShutdown } from './lifecycle/graceful-shutdown';
export type { GracefulShutdownOptions, ShutdownStep } from './lifecycle/graceful-shutdown';
export {
  TENANT_HEADER,
  TENANT_ID_PATTERN,
  tenantContextMiddleware,
  runWithContext,
  runWithTenant,
  currentContext,
  currentTenantId,
} from './tenant/tenant-context';
export type { RequestContext } from './tenant/tenant-context';
export { createDatabase } from './database/database-factory';
export type { Database, DatabaseOptions, SqlSession } from './database/database-factory';
export { parseDatabaseUrl, redactUrl } from './database/database-url';
export type { DatabaseLocation } from './database/database-url';
export { PgliteDialect } from './database/pglite-dialect';
export { AsyncMutex } from './database/async-mutex';
export { migrateDatabase, readMigrationFolder, assertTablesExist } from './database/migrator';
export type { Migration, MigrationResult } from './database/migrator';
