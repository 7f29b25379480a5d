// The `@fw/core/http` entry point: express middleware and routers. Kept out of the main entry so
// that hosts without HTTP (worker hosts) need neither express nor its types; express is an
// optional peer of @fw/core that this entry requires.
export { makeErrorMiddleware, makeNotFoundHandler, requireJsonBody } from './http/error-middleware';
export { makeInfoRouter } from './http/info-router';
export { tenantContextMiddleware } from './http/tenant-middleware';
export { rejectControlCharacters } from './http/input-policy-middleware';
export { makeMethodNotAllowed } from './http/method-not-allowed';
export type { MethodNotAllowedOptions } from './http/method-not-allowed';
export { serveSpa } from './spa/serve-spa';
export type { ServeSpaOptions } from './spa/serve-spa';
export { spaContentSecurityPolicy, IMMUTABLE_CACHE, REVALIDATE_CACHE } from './spa/spa-headers';
export { spaNotBuiltPage, SPA_NOT_BUILT_STATUS } from './spa/spa-not-built';
export type { SpaNotBuiltPage } from './spa/spa-not-built';
