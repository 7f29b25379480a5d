// Public entry point of @fw/process-management. Every export is listed explicitly.
export { makeProcessManagementRouter, MANAGEMENT_BASE_PATH } from './router/management-router';
export type { ManagementInfo, ManagementRouterInternals } from './router/management-router';
export {
  makeManagementKeyGuard,
  assertManagementKey,
  managementKeyMatches,
  MANAGEMENT_KEY_HEADER,
  MIN_MANAGEMENT_KEY_LENGTH,
} from './auth/key-guard';
export type { ManagementKeyGuardOptions } from './auth/key-guard';
export { ROLES, roleAllows, highestRole, isRole } from './access/access-roles';
export type { Role } from './access/access-roles';
export type { Caller, TenantScope } from './access/caller';
export { makeKeyCredentials, keyFingerprint } from './access/key-credentials';
export type { KeyCredential, KeyCredentials } from './access/key-credentials';
export {
  makeJwtVerifier,
  refusedTokenSubject,
  ASYMMETRIC_ALGORITHMS,
  ROLES_CLAIM,
  TENANTS_CLAIM,
} from './access/jwt-verifier';
export type { JwtVerifier, JwtVerifierOptions, JsonWebKeySetInput } from './access/jwt-verifier';
export { makeAuthFailureLimiter } from './access/auth-failure-limiter';
export type { AuthFailureLimiter, AuthFailureLimitOptions } from './access/auth-failure-limiter';
export { makeAccessGuard, resolveManagementAccess, authorizationProblem } from './access/access-guard';
export type {
  ManagementAccessOptions,
  ResolvedAccess,
  AccessGuardOptions,
  CredentialRefusal,
} from './access/access-guard';
export { OPERATION_ACCESS, accessOf, accessKey, requiredRoleFor, isAudited } from './access/operation-access-table';
export type { OperationAccess, NarrowerAccess } from './access/operation-access-table';
export { makeAuditStore, AUDIT_TABLES } from './audit/audit-store';
export { makeRefusalAudit, ANONYMOUS_ACTOR } from './audit/refusal-audit';
export type { RefusalAuditOptions, RefusableOperation } from './audit/refusal-audit';
export type { AuditStore, AuditEntry, AuditRecord, AuditFilter, AuditHandle } from './audit/audit-store';
export { AUDIT_OUTCOMES } from './audit/audit-schemas';
export type { AuditOutcome } from './audit/audit-schemas';
export { parsePageRequest, pageOf, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, MAX_PAGE_NUMBER } from './http/pagination';
export type { Page, PageRequest } from './http/pagination';
export { ManagementErrorCodes, makeManagementErrorMiddleware } from './http/management-errors';
export type { ManagementErrorBody } from './http/management-errors';
export { EXECUTION_STATUSES } from './ports/management-ports';
export type {
  ManagementPorts,
  DefinitionSourcePort,
  TriggerServicePort,
  CrontabStorePort,
  CronSchedulerPort,
  ChangeOptions,
  TriggerRequest,
  TriggerResult,
  TriggerPayload,
  TriggerSourceKind,
  ExecutionFilter,
  ExecutionRecord,
  ExecutionView,
  ExecutionStatus,
  CrontabInput,
  CrontabRecord,
} from './ports/management-ports';
export { defaultManualTriggerId } from './router/trigger-routes';
export { defaultCrontabErrorClassifier } from './router/crontab-routes';
export { makeProcessQueries } from './repository/process-queries';
export type {
  ProcessQueries,
  ProcessQueryOptions,
  ProcessFilter,
  ProcessSummary,
  ProcessDetail,
  CompletionEventRecord,
} from './repository/process-queries';
export { boundedCount, DEFAULT_COUNT_EXACT_LIMIT } from './repository/bounded-count';
export type { BoundedCount, ResidualFilter } from './repository/bounded-count';
export {
  DEFAULT_SUCCEEDED_RETENTION,
  DEFAULT_FAILED_RETENTION,
  parseIsoDuration,
  retentionSettingsFromEnv,
  retentionRulesOf,
} from './retention/retention-settings';
export type { RetentionPair, RetentionSettings, RetentionRule, RetentionRules } from './retention/retention-settings';
export { makeHistoryRetentionStore } from './retention/history-retention-store';
export type {
  HistoryRetentionStore,
  ExpiredRoot,
  SweepCursor,
  GroupRemoval,
  RemoveOneOutcome,
} from './retention/history-retention-store';
export { makeHistorySweeper, groupRoots, HISTORY_SWEEPER_LEASE } from './retention/history-sweeper';
export { DEFAULT_SWEEP_DUTY_CYCLE, pauseAfterTransaction, sweepDutyCycleFromEnv } from './retention/sweep-pacing';
export type {
  HistorySweeper,
  HistorySweeperOptions,
  SweeperLease,
  SweepPass,
  SweptAuditTrail,
} from './retention/history-sweeper';
export { totalRows } from './retention/tree-removal-statements';
export type { RemovedRows } from './retention/tree-removal-statements';
export { makeDefinitionStore, findPredecessorCycle } from './repository/definition-store';
export type { DefinitionStore } from './repository/definition-store';
export { buildTrace, triggerNodeId } from './trace/trace-builder';
export type { TraceGraph, TraceNode, TraceEdge, TraceNodeKind, TraceEdgeKind, TraceInput } from './trace/trace-builder';
export { makeTraceLoader, TRACE_LIMIT } from './trace/trace-loader';
export type { TraceLoader, TraceLoaderOptions } from './trace/trace-loader';
export { buildOpenApiDocument, ADMIN_API_SCHEMAS } from './openapi/admin-api-document';
export type {
  OpenApiDocument,
  OpenApiOperationObject,
  OpenApiPathItem,
  OpenApiResponseObject,
  OpenApiParameter,
} from './openapi/admin-api-document';
export { ADMIN_API_OPERATIONS } from './openapi/admin-api-operations';
export type { AdminApiOperation, ApiMethod, ApiResponse } from './openapi/admin-api-operations';
export {
  MAX_TRIGGER_ID_LENGTH,
  NAME_MAX_LENGTH,
  CRON_EXPRESSION_MAX_LENGTH,
  TIMEZONE_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  FILTER_MAX_LENGTH,
  REQUEST_SCHEMAS,
  QUERY_PARAMETERS,
} from './openapi/admin-api-request-schemas';
export { RESPONSE_SCHEMAS } from './openapi/admin-api-response-schemas';
// The answers' types, read from their schemas: type-only, so a browser client imports them without server code.
export type {
  AnswerSchemas,
  WireShape,
  InfoWire,
  ProcessSummaryWire,
  ProcessDetailWire,
  ProcessErrorWire,
  CompletionEventWire,
  TraceWire,
  TraceNodeWire,
  TraceEdgeWire,
  ExecutionWire,
  StoredTriggerPayloadWire,
  TriggerResultWire,
  CrontabWire,
  ProcessDefWire,
  RefreshWire,
  CallerWire,
  AuditEntryWire,
  HealthWire,
  HealthRowWire,
  HealthBucketWire,
  HealthBacklogWire,
} from './openapi/admin-api-wire-types';
export { makeHealthReader, HEALTH_WINDOW_SECONDS, HEALTH_BUCKET_SECONDS } from './health/health-reader';
export type { HealthReader } from './health/health-reader';
export type { JsonSchema } from './openapi/json-schema';
export { makeMethodNotAllowed } from './http/method-not-allowed';
export { makeResponseContract } from './openapi/response-contract';
export type { ResponseContract, ReceivedAnswer, OpenApiLike } from './openapi/response-contract';
export { processManagementMigrations } from './schema/process-management-migrations';
