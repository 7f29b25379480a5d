export { makeAdminUiRouter, parseProxyAllowedOrigins, type AdminUiRouterOptions } from './router/admin-ui-router';
export { defaultAdminUiAssetsDir } from './router/app-assets';
export {
  proxyInfoRequest,
  parseProxyBase,
  type InfoProxyPolicy,
  type InfoProxyRequest,
  type InfoProxyResponse,
} from './proxy/info-proxy';
export { isReadOnlyInfoPath, API_DOC_PATHS } from './proxy/read-only-paths';
