/**
 * `makeAdminUiRouter()`: the admin UI of a host, served by the host itself at `/fw/admin`. The
 * prebuilt app is served by `@fw/core`'s `serveSpa` (hashed assets cached for a year, the index
 * with a `<base href>` for the mount path for the base path and every browser navigation under it,
 * 503 with the build command while it is not built); the router adds the read-only proxy for hosts
 * on other origins listed in `proxyAllowedOrigins`, and refuses other methods with 405.
 *
 * @example
 * const app = express();
 * app.use(makeServiceRouter(registry));      // /info, /service-info, /health-check, /openapi.json
 * app.use(makeAdminUiRouter());              // the UI at /fw/admin
 * app.listen(8080);
 */
import { CoreErrorCodes, errorEnvelope, FwError } from '@fw/core';
import { serveSpa } from '@fw/core/http';
import express, { type Request, type Response, type Router } from 'express';
import { proxyInfoRequest } from '../proxy/info-proxy';
import { defaultAdminUiAssetsDir } from './app-assets';

export interface AdminUiRouterOptions {
  /** Where the UI lives (default `/fw/admin`): starts with '/', no trailing '/'. */
  basePath?: string;
  /**
   * Origins (`http://host:port`) of other hosts the UI may read through this host's proxy. Empty
   * (the default): the proxy refuses everything, and the UI reads its own origin only.
   */
  proxyAllowedOrigins?: readonly string[];
  /** The built app (default: the one inside this package). */
  assetsDir?: string;
}

function checkBasePath(basePath: string): string {
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath)) {
    throw new TypeError(
      `makeAdminUiRouter: basePath must start with '/' and hold plain path segments without a trailing '/' (got '${basePath}')`,
    );
  }
  return basePath;
}

function normalizeOrigins(origins: readonly string[]): Set<string> {
  const normalized = new Set<string>();
  for (const origin of origins) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new TypeError(
        `makeAdminUiRouter: proxyAllowedOrigins holds '${origin}', which is not a URL such as http://host:8080`,
      );
    }
    normalized.add(url.origin);
  }
  return normalized;
}

function methodNotAllowed(res: Response): void {
  const error = new FwError({
    code: 405,
    subErrorCode: CoreErrorCodes.methodNotAllowed,
    description: 'The admin UI is read-only: GET and HEAD only',
    params: ['GET', 'HEAD'],
  });
  res.status(405).set('Allow', 'GET, HEAD').json(errorEnvelope(error));
}

export function makeAdminUiRouter(options: AdminUiRouterOptions = {}): Router {
  const basePath = checkBasePath(options.basePath ?? '/fw/admin');
  const allowed = normalizeOrigins(options.proxyAllowedOrigins ?? []);
  const ui = express.Router({ strict: true });

  ui.get('/proxy', async (req: Request, res: Response) => {
    const key = req.get('x-fw-info-key');
    const answer = await proxyInfoRequest(
      { base: req.query.base, path: req.query.path, infoKey: key },
      { allowOrigin: (origin) => allowed.has(origin) },
    );
    res.status(answer.status).type(answer.contentType).set('Cache-Control', 'no-store').send(answer.body);
  });
  ui.use(
    serveSpa({
      dir: options.assetsDir ?? defaultAdminUiAssetsDir(),
      appName: 'The admin UI',
      buildCommand: 'npm run build -w @fw/admin-ui',
      // The app is mounted wherever the host chooses; Mermaid's SVG sets inline styles.
      baseHref: true,
      inlineStyles: true,
      isAppPath: (path) => path !== '/proxy/',
    }),
  );
  ui.use((req: Request, res: Response, next) =>
    req.method === 'GET' || req.method === 'HEAD' ? next() : methodNotAllowed(res),
  );

  const router = express.Router();
  router.use(basePath, ui);
  return router;
}

/**
 * Parses a comma-separated list of origins (an environment variable such as
 * `FW_ADMIN_UI_PROXY_ORIGINS`); unset or blank is none.
 * @throws TypeError naming the variable and the entry that is not an http(s) origin.
 */
export function parseProxyAllowedOrigins(raw: string | undefined, name: string): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((part) => {
    const origin = part.trim();
    if (!/^https?:\/\/[^\s/]+\/?$/.test(origin))
      throw new TypeError(
        `${name} must list origins such as http://host:8080, comma-separated; '${origin}' is not one`,
      );
    return origin.replace(/\/$/, '');
  });
}
