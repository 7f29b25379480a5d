// Public entry point of @fw/core (no express: the HTTP helpers are in the `@fw/core/http` entry,
// see ./http.ts). Every export is listed explicitly.
export { loadConfigFile, configFromObject } from './config/config-loader';
export type { LoadedConfig, LoadConfigOptions } from './config/config-loader';
export { FwError, isFwError, ConfigError, isConfigError, CoreErrorCodes } from './errors/fw-error';
export type { FwErrorDetail, FwErrorInit, Severity } from './errors/fw-error';
export { ERROR_CODE_ALIASES, canonicalErrorCode, legacyErrorCodeOf } from './errors/error-code-aliases';
export { successEnvelope, errorEnvelope } from './http/response-envelope';
export type { SuccessEnvelope, ErrorEnvelope, ResponseEnvelope } from './http/response-envelope';
export { toFwError, databaseInputError, malformedJsonError, payloadTooLargeError } from './http/error-mapping';
export { ERROR_ENVELOPE_SCHEMA, successEnvelopeSchema } from './schema/envelope-schemas';
export { allowedMethods, pathTemplates, templatePattern } from './http/path-templates';
export type { PathTemplate } from './http/path-templates';
export { schemaErrorField, schemaErrorSentence } from './schema/schema-error-text';
export type { SchemaErrorLike } from './schema/schema-error-text';
export type { FromJsonSchema } from './schema/json-schema-type';
export {
  findControlCharacter,
  controlCharacterError,
  assertNoControlCharacters,
  findExcessiveNesting,
  excessiveNestingError,
  MAX_INPUT_DEPTH,
} from './http/input-policy';
export type { ControlCharacterHit } from './http/input-policy';
export type { ServiceInfo, HealthCheck, InfoRouterOptions } from './http/service-info';
export { createLogger } from './logging/logger';
export type { Logger, LoggerOptions } from './logging/logger';
export { installGracefulShutdown } from './lifecycle/graceful-shutdown';
export type { GracefulShutdownOptions, ShutdownStep } from './lifecycle/graceful-shutdown';
export {
  TENANT_HEADER,
  TRIGGER_ID_HEADER,
  TENANT_ID_PATTERN,
  runWithContext,
  runWithTenant,
  currentContext,
  currentTenantId,
  runWithTracingContext,
  currentTracingContext,
} from './tenant/tenant-context';
export type { RequestContext, RequestTrigger, RequestCaller } from './tenant/tenant-context';
export { makeRequestContext, restoreRequestContext, storedRequestContext } from './tenant/request-context';
export type { RequestContextFields, StoredRequestContext } from './tenant/request-context';
export { createDatabase } from './database/database-factory';
export type { Database, DatabaseOptions, SqlSession } from './database/database-factory';
export type { PgliteInstance } from './database/pglite-dialect';
export {
  DATABASE_POOLERS,
  DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MILLIS,
  parseDatabasePooler,
} from './database/session-settings';
export type { DatabasePooler, SessionTimeouts } from './database/session-settings';
export { parseDatabaseUrl, redactUrl } from './database/database-url';
export type { DatabaseLocation } from './database/database-url';
export { AsyncMutex } from './database/async-mutex';
export { jsonRecordset } from './database/json-recordset';
export { timeOrderedUuid } from './ids/time-ordered-uuid';
export type { JsonRecordsetOptions, RecordsetColumnType } from './database/json-recordset';
export { migrateDatabase, orderMigrations, readMigrationFolder, assertTablesExist } from './database/migrator';
export type { Migration, MigrationResult } from './database/migrator';
