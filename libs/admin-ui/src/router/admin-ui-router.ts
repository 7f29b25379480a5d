/**
 * `makeAdminUiRouter()`: the admin UI of a host, served by the host itself at `/fw/admin` (DECISIONS
 * 6). The router serves the prebuilt app (hashed assets cached for a year, the index never), answers
 * every other GET under the base path with the index so deep links reload to the same view, and
 * offers the read-only proxy for hosts on other origins listed in `proxyAllowedOrigins`.
 *
 * @example
 * const app = express();
 * app.use(makeServiceRouter(registry));      // /info, /service-info, /health-check, /openapi.json
 * app.use(makeAdminUiRouter());              // the UI at /fw/admin
 * app.listen(8080);
 */
import express, { type Request, type Response, type Router } from 'express';
import { proxyInfoRequest } from '../proxy/info-proxy';
import { defaultAdminUiAssetsDir, makeAppAssets } from './app-assets';

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

const HASHED_ASSET = /^\/assets\/.+-[A-Za-z0-9_-]{8,}\.(js|css|svg|woff2?)$/;

// The app loads only its own scripts; Mermaid's SVG needs inline styles; data: images for icons.
const CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

function checkBasePath(basePath: string): string {
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath)) {
    throw new TypeError(`makeAdminUiRouter: basePath must start with '/' and hold plain path segments without a trailing '/' (got '${basePath}')`);
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
      throw new TypeError(`makeAdminUiRouter: proxyAllowedOrigins holds '${origin}', which is not a URL such as http://host:8080`);
    }
    normalized.add(url.origin);
  }
  return normalized;
}

function methodNotAllowed(res: Response): void {
  res.status(405).set('Allow', 'GET, HEAD').json({ message: 'The admin UI is read-only: GET and HEAD only' });
}

export function makeAdminUiRouter(options: AdminUiRouterOptions = {}): Router {
  const basePath = checkBasePath(options.basePath ?? '/fw/admin');
  const allowed = normalizeOrigins(options.proxyAllowedOrigins ?? []);
  const assets = makeAppAssets(options.assetsDir ?? defaultAdminUiAssetsDir());
  const ui = express.Router({ strict: true });

  ui.get('/proxy', async (req: Request, res: Response) => {
    const key = req.get('x-fw-info-key');
    const answer = await proxyInfoRequest({ base: req.query.base, path: req.query.path, infoKey: key }, { allowOrigin: (origin) => allowed.has(origin) });
    res.status(answer.status).type(answer.contentType).set('Cache-Control', 'no-store').send(answer.body);
  });
  ui.use(
    express.static(assets.dir, {
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders: (res, file) => {
        const relative = file.slice(assets.dir.length).replace(/\\/g, '/');
        res.setHeader('Cache-Control', HASHED_ASSET.test(relative) ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('X-Content-Type-Options', 'nosniff');
      },
    }),
  );
  ui.use((req: Request, res: Response) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res);
    // `/fw/admin` → `/fw/admin/`: the page's relative URLs resolve against the trailing slash.
    if (req.path === '/' && !req.originalUrl.split('?')[0].endsWith('/')) {
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      res.redirect(301, `${req.baseUrl}/${query}`);
      return;
    }
    // A missing asset is a 404, not the index (a stale cached page must not get HTML for a script).
    if (req.path.startsWith('/assets/') || req.path === '/proxy/') {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    const page = assets.indexFor(`${req.baseUrl}/`);
    if (page === undefined) {
      res.status(503).type('text/plain').send('The admin UI is not built in this installation: run `npm run build` (in the fw checkout: npm run build-web -w @fw/admin-ui).');
      return;
    }
    res.set({
      'Cache-Control': 'no-cache',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    res.type('html').send(page);
  });

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
    if (!/^https?:\/\/[^\s/]+\/?$/.test(origin)) throw new TypeError(`${name} must list origins such as http://host:8080, comma-separated; '${origin}' is not one`);
    return origin.replace(/\/$/, '');
  });
}
