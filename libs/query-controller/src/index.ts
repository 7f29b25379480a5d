// Public entry point of @fw/query-controller. Every export is listed explicitly.
export { makeQueryRouter } from './controller/query-router';
export { makeQueryRequestHandler } from './controller/query-request-handler';
export { parseBodyLimit } from './controller/json-body-reader';
export { describe as describeQuerySummary } from './controller/query-description';
export {
  wantsNdjson,
  sendAnswer,
  writeNdjson,
  callerFromAuthorization,
  NDJSON_TYPE,
} from './controller/streamed-answer';
export type {
  QueryAuthorizer,
  QueryRouterOptions,
  QueryRequestHandler,
  QueryRequestHandlerOptions,
  QueryDescription,
  FilterDescription,
  CallerIdentity,
} from './controller/query-controller-types';
