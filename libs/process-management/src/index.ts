// Public entry point of @fw/process-management. Every export is listed explicitly.
export { makeProcessManagementRouter, MANAGEMENT_BASE_PATH } from './router/management-router';
export type { ManagementInfo, ManagementRouterInternals } from './router/management-router';
export { makeManagementKeyGuard, assertManagementKey, managementKeyMatches, MANAGEMENT_KEY_HEADER, MIN_MANAGEMENT_KEY_LENGTH } from './auth/key-guard';
export type { ManagementKeyGuardOptions } from './auth/key-guard';
export { parsePageRequest, pageOf, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './http/pagination';
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
  TriggerRequest,
  TriggerResult,
  TriggerPayload,
  TriggerSourceKind,
  ExecutionFilter,
  ExecutionRecord,
  ExecutionStatus,
  CrontabInput,
  CrontabRecord,
} from './ports/management-ports';
export { defaultManualTriggerId, defaultCrontabErrorClassifier, MAX_TRIGGER_ID_LENGTH } from './router/trigger-routes';
export { makeProcessQueries } from './repository/process-queries';
export type { ProcessQueries, ProcessFilter, ProcessSummary, ProcessDetail, CompletionEventRecord } from './repository/process-queries';
export { makeDefinitionStore, findPredecessorCycle } from './repository/definition-store';
export type { DefinitionStore } from './repository/definition-store';
export { buildTrace, triggerNodeId } from './trace/trace-builder';
export type { TraceGraph, TraceNode, TraceEdge, TraceNodeKind, TraceEdgeKind, TraceInput } from './trace/trace-builder';
export { makeTraceLoader, TRACE_LIMIT } from './trace/trace-loader';
export type { TraceLoader, TraceLoaderOptions } from './trace/trace-loader';
export { buildOpenApiDocument } from './openapi/openapi-document';
export type { OpenApiDocument } from './openapi/openapi-document';
