// Public entry point of @fw/query-controller. Every export is listed explicitly.
export { makeQueryRouter } from './controller/query-router';
export { describe as describeQuerySummary } from './controller/query-description';
export type { QueryAuthorizer, QueryRouterOptions, QueryDescription, FilterDescription } from './controller/query-controller-types';
