/**
 * `serveSpa()`: one built single-page app (a Vite build: `index.html`, hashed bundles under
 * `assets/`, a few public files) served by an express host, the same way for every app of the
 * framework (the admin UI, the process dashboard, the generator's portal):
 *
 * - the index for the mount path (`/fw/admin` redirects to `/fw/admin/`) and for every browser
 *   navigation (`Accept: text/html`) to a path of the app, so deep links survive a reload; API
 *   clients asking for JSON at such a path go on to the host's own answer;
 * - the index with a content security policy, never cached; bundles under `assets/` cached for a
 *   year as immutable; a missing bundle is 404, never the index (a stale page must not get HTML
 *   for a script);
 * - without a build, 503 with a page naming the command that builds the app;
 * - GET and HEAD only: other methods go on to the host.
 *
 * @example
 * app.use(serveSpa({ dir: dashboardDir, appName: 'The process dashboard', buildCommand: 'npm run build -w @fw/process-dashboard',
 *                    isAppPath: (p) => !p.startsWith('/process-management') }));
 * app.use('/fw/admin', serveSpa({ dir: adminDir, appName: 'The admin UI', buildCommand: 'npm run build -w @fw/admin-ui', baseHref: true }));
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import * as path from 'node:path';
import { IMMUTABLE_CACHE, REVALIDATE_CACHE, spaContentSecurityPolicy, spaPageHeaders } from './spa-headers';
import { makeSpaIndex, type SpaIndex } from './spa-index';
import { SPA_NOT_BUILT_STATUS, spaNotBuiltPage } from './spa-not-built';

export interface ServeSpaOptions {
  /** The built app: `index.html`, hashed bundles under `assets/`, other public files. */
  dir: string;
  /** The app, as a sentence starts (`'The admin UI'`), for the page answered while it is not built. */
  appName: string;
  /** The command that builds it (`'npm run build -w @fw/admin-ui'`), for the same page. */
  buildCommand: string;
  /** One more sentence for that page: what works meanwhile. */
  notBuiltNote?: string;
  /**
   * Whether a path below the mount point is the app's (default: every path). Others go on to the
   * next handler: the host's own routes when the app shares the root with them.
   */
  isAppPath?: (path: string) => boolean;
  /**
   * Writes `<base href="<mount path>/">` into the index, so that an app built with relative URLs
   * works under whatever path the host mounts it at, deep links included. Default false.
   */
  baseHref?: boolean;
  /** Allows inline `style` attributes in the page (React style props, Mermaid's SVG). Default false. */
  inlineStyles?: boolean;
  /**
   * Origins besides its own the page may call (`connect-src`), such as an identity provider's
   * for a sign-in in the browser. Each must be an http(s) origin. Default none.
   */
  connectSources?: readonly string[];
}

const ASSETS = '/assets/';

function isNavigation(req: Request): boolean {
  return (req.get('accept') ?? '').includes('text/html');
}

/** `/fw/admin?x=1` → `/fw/admin/?x=1`: the page's relative URLs resolve against the trailing slash. */
function needsTrailingSlash(req: Request): boolean {
  return req.baseUrl !== '' && !req.originalUrl.split('?')[0].endsWith('/');
}

function redirectToSlash(req: Request, res: Response): void {
  const at = req.originalUrl.indexOf('?');
  res.redirect(301, `${req.baseUrl}/${at < 0 ? '' : req.originalUrl.slice(at)}`);
}

function makePageAnswer(index: SpaIndex, options: ServeSpaOptions): (req: Request, res: Response) => void {
  const headers = spaPageHeaders(
    spaContentSecurityPolicy({ inlineStyles: options.inlineStyles === true, connectSources: options.connectSources }),
  );
  const notBuilt = spaNotBuiltPage({
    appName: options.appName,
    buildCommand: options.buildCommand,
    ...(options.notBuiltNote === undefined ? {} : { note: options.notBuiltNote }),
  });
  return (req, res) => {
    const page = index.pageFor(`${req.baseUrl}/`);
    res.set(headers).type('html');
    if (page === undefined) res.status(SPA_NOT_BUILT_STATUS).send(notBuilt);
    else res.send(page);
  };
}

/** The app's router; mount it where the app lives, before any catch-all of the host. */
export function serveSpa(options: ServeSpaOptions): RequestHandler {
  const isAppPath = options.isAppPath ?? (() => true);
  const answerPage = makePageAnswer(makeSpaIndex(options.dir, { baseHref: options.baseHref === true }), options);
  const files = express.static(options.dir, {
    index: false,
    redirect: false,
    fallthrough: true,
    setHeaders: (res, file) => {
      const relative = path.relative(options.dir, file).split(path.sep).join('/');
      res.setHeader('Cache-Control', relative.startsWith('assets/') ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/' || req.path === '/index.html') {
      if (req.path === '/' && needsTrailingSlash(req)) return redirectToSlash(req, res);
      return answerPage(req, res);
    }
    if (!isAppPath(req.path)) return next();
    if (req.path.startsWith(ASSETS))
      return void files(req, res, () => void res.status(404).type('text/plain').send('Not found'));
    files(req, res, () => (isNavigation(req) ? answerPage(req, res) : next()));
  };
}
