/**
 * Serves the process dashboard (`@fw/process-dashboard`, its build in `dist/web`) at `/`: hashed
 * assets under `/assets/` with a year-long immutable cache, and the index (no-cache) for `/` and
 * every other browser navigation (GET accepting text/html) to a path that is not the server's own,
 * so deep links such as `/t/demo/processes/…` survive a reload. The page holds no data and no key: it asks for the key, and every call it
 * makes carries it. Without a build (a checkout where `npm run build` has not run) `/` answers a
 * short page saying so.
 *
 * @example
 * app.use(makeDashboardRouter({ reservedPrefixes: ['/support-ticket'] }));   // before the key guard
 */
import { processDashboardAssetsDir, processDashboardBuilt } from '@fw/process-dashboard';
import express, { type Request, type Router } from 'express';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Paths the server answers itself: never the dashboard's index. */
export const SERVER_PATH_PREFIXES: readonly string[] = ['/process-management', '/process', '/info', '/service-info', '/health-check', '/openapi.json', '/mcp', '/fw'];

export interface DashboardRouterOptions {
  /** The built files (default: `@fw/process-dashboard`'s `dist/web`). */
  assetsDir?: string;
  /** More prefixes the host answers (such as the paths of the services it serves). */
  reservedPrefixes?: readonly string[];
}

/** The page `/` answers when the dashboard was not built. */
export const DASHBOARD_MISSING_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Process dashboard not built</title></head>
<body style="font: 15px system-ui, sans-serif; margin: 2rem; max-width: 40rem">
<h1>The process dashboard is not built</h1>
<p>This admin server serves the dashboard from <code>@fw/process-dashboard</code>'s <code>dist/web</code>, which is missing.
In the repository checkout run <code>npm run build</code> (or <code>cd apps/process-dashboard &amp;&amp; npm run build-web</code>), then reload.</p>
<p>The administration API works meanwhile: <code>/process-management/api</code> with header <code>X-Process-Management-Key</code>.</p>
</body></html>`;

const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  // React and the graph library set style attributes; scripts come only from this origin.
  'Content-Security-Policy': "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'",
};

/** `/process` covers `/process/…`, `/processChildren/…` and the like: prefixes are plain string prefixes. */
function isReserved(pathname: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => pathname.startsWith(prefix));
}

function readIndex(dir: string): string | undefined {
  try {
    return readFileSync(path.join(dir, 'index.html'), 'utf8');
  } catch {
    return undefined;
  }
}

/** The dashboard router; mount it before the key guard (it only answers GET and HEAD). */
export function makeDashboardRouter(options: DashboardRouterOptions = {}): Router {
  const dir = options.assetsDir ?? processDashboardAssetsDir();
  const prefixes = [...SERVER_PATH_PREFIXES, ...(options.reservedPrefixes ?? [])];
  const router = express.Router();
  // Read once when built (a rebuild while the server runs is picked up at the next miss).
  let index = processDashboardBuilt(dir) ? readIndex(dir) : undefined;

  router.use(
    '/assets',
    express.static(path.join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: false, redirect: false }),
  );
  const answerIndex = (req: Request, res: express.Response, next: express.NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // Deep links are browser navigations (Accept: text/html); API clients keep their 401/404.
    if (req.path !== '/' && (isReserved(req.path, prefixes) || !(req.get('accept') ?? '').includes('text/html'))) return next();
    index ??= readIndex(dir);
    res.set({ 'Cache-Control': 'no-cache', ...SECURITY_HEADERS });
    res.type('html');
    if (index === undefined) {
      if (req.path !== '/') return next();
      res.status(200).send(DASHBOARD_MISSING_HTML);
      return;
    }
    res.send(index);
  };
  router.use(answerIndex);
  return router;
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
