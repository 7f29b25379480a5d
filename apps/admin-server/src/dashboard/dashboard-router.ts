/**
 * Serves the process dashboard (`@fw/process-dashboard`, its build in `dist/web`) at `/` through
 * `@fw/core`'s `serveSpa`: hashed assets with a year-long immutable cache, the index (no-cache) for
 * `/` and every browser navigation to a path that is not the server's own, so deep links such as
 * `/t/demo/processes/…` survive a reload, and 503 with the build command while it is not built.
 * The page holds no data and no key: it asks for the key, and every call it makes carries it.
 * `/dashboard-config.json` tells it whether it may also sign in at an identity provider (OpenID
 * Connect), whose origins the page's content security policy then allows for its calls.
 *
 * @example
 * app.use(makeDashboardRouter({ reservedPrefixes: ['/support-ticket'] }));   // before the key guard
 */
import { serveSpa, spaNotBuiltPage } from '@fw/core/http';
import { processDashboardAssetsDir } from '@fw/process-dashboard';
import type { RequestHandler } from 'express';
import type { DashboardSignInConfig } from '../config/sign-in-config';

/** Paths the server answers itself: never the dashboard's index. */
export const SERVER_PATH_PREFIXES: readonly string[] = [
  '/process-management',
  '/process',
  '/info',
  '/service-info',
  '/health-check',
  '/openapi.json',
  '/mcp',
  '/fw',
];

export interface DashboardRouterOptions {
  /** The built files (default: `@fw/process-dashboard`'s `dist/web`). */
  assetsDir?: string;
  /** More prefixes the host answers (such as the paths of the services it serves). */
  reservedPrefixes?: readonly string[];
  /** Single sign-on at an identity provider: answered at {@link DASHBOARD_CONFIG_PATH}, its origins allowed to the page. */
  signIn?: DashboardSignInConfig;
}

/** Where the dashboard reads how it may sign in (beside its index, so it follows a path prefix). */
export const DASHBOARD_CONFIG_PATH = '/dashboard-config.json';

/** The body of {@link DASHBOARD_CONFIG_PATH}: what the sign-in form offers besides a key or a pasted token. */
export interface DashboardConfigBody {
  oidc: { issuer: string; clientId: string; scope: string } | null;
}

const NOT_BUILT = {
  appName: 'The process dashboard',
  buildCommand: 'npm run build -w @fw/process-dashboard',
  note: 'The administration API works meanwhile: /process-management/api with header X-Process-Management-Key.',
};

/** The page `/` answers (with status 503) when the dashboard was not built. */
export const DASHBOARD_MISSING_HTML = spaNotBuiltPage(NOT_BUILT);

/** The dashboard's handler; mount it before the key guard (it only answers GET and HEAD). */
export function makeDashboardRouter(options: DashboardRouterOptions = {}): RequestHandler {
  const prefixes = [...SERVER_PATH_PREFIXES, ...(options.reservedPrefixes ?? [])];
  const oidc = options.signIn?.oidc;
  const config: DashboardConfigBody = {
    oidc: oidc === undefined ? null : { issuer: oidc.issuer, clientId: oidc.clientId, scope: oidc.scope },
  };
  const spa = serveSpa({
    dir: options.assetsDir ?? processDashboardAssetsDir(),
    appName: NOT_BUILT.appName,
    buildCommand: NOT_BUILT.buildCommand,
    notBuiltNote: NOT_BUILT.note,
    // `/process` covers `/process/…`, `/processChildren/…` and the like: plain string prefixes.
    isAppPath: (path) => !prefixes.some((prefix) => path.startsWith(prefix)),
    // React and the graph library set style attributes.
    inlineStyles: true,
    // The sign-in reads the identity provider's discovery document and calls its token endpoint.
    connectSources: oidc?.connectOrigins ?? [],
  });
  return (req, res, next) => {
    if (req.path !== DASHBOARD_CONFIG_PATH || (req.method !== 'GET' && req.method !== 'HEAD'))
      return spa(req, res, next);
    // Public like the page itself: names of the identity provider and client, no secret.
    res.set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).json(config);
  };
}

/** First path segments of the operations a registry serves (`/support-ticket` …): not the dashboard's. */
export function servicePathPrefixes(services: readonly { operations: readonly { path?: string }[] }[]): string[] {
  const prefixes = new Set<string>();
  for (const service of services) {
    for (const op of service.operations) {
      const first = op.path?.split('/').find((segment) => segment !== '');
      if (first && !first.startsWith(':') && !first.startsWith('{')) prefixes.add(`/${first}`);
    }
  }
  return [...prefixes];
}
