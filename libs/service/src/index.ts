// Public entry point of @fw/service. Every export is listed explicitly.
export { defineService, describeService, SERVICE_KINDS } from './definition/service-definition';
export type { CallContext, Principal } from './definition/call-context';
export type {
  HttpMethod,
  JsonSchema,
  OpenApiComponents,
  OpenApiObject,
  OperationDefinition,
  OperationOpenApi,
  OperationHandler,
  ServiceDefinition,
  ServiceDefinitionInit,
  ServiceDescription,
  ServiceHealthCheck,
  ServiceKind,
} from './definition/service-definition';
export { runChain } from './interceptors/interceptor';
export type { InterceptedCall, Interceptor } from './interceptors/interceptor';
export {
  makeApiKeyInterceptor,
  makeAuditInterceptor,
  makeCachingInterceptor,
  makeMetricsInterceptor,
} from './interceptors/shipped-interceptors';
export type {
  ApiKeyInterceptorOptions,
  CachingInterceptorOptions,
  OperationMetrics,
} from './interceptors/shipped-interceptors';
export { makeServiceRegistry } from './registry/service-registry';
export type {
  HealthReport,
  HostInfo,
  HostInfoPayload,
  InvokeOptions,
  ServiceRegistry,
  ServiceRegistryOptions,
} from './registry/service-registry';
export { makeServiceRouter, INFO_KEY_HEADER, MIN_INFO_KEY_LENGTH } from './http/service-router';
export type { ServiceRouterOptions } from './http/service-router';
export { buildOpenApiDocument, SAME_HOST_SERVERS } from './openapi/openapi-document';
export type { OpenApiDocumentOptions } from './openapi/openapi-document';
export { ENVELOPE_METHOD_NOT_ALLOWED } from './openapi/info-paths';
export { ServiceErrorCodes } from './errors/service-errors';
export { makeServiceRegistryService } from './discovery/service-registry-service';
export type { CatalogEntry, ServiceRegistryServiceOptions } from './discovery/service-registry-service';
export { makeRegistryDelegate } from './discovery/registry-delegate';
export type { RegistryDelegate, RegistryDelegateOptions } from './discovery/registry-delegate';
export { onListening } from './discovery/listening-host';
export type { ListeningHost, OnListeningOptions } from './discovery/listening-host';
export { makeServiceProxy } from './proxy/service-proxy';
export type { ServiceProxy, ServiceProxyOptions } from './proxy/service-proxy';
