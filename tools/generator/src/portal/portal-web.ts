/**
 * The portal's page: the React app of `portal-web/`, built by `npm run build-web` into
 * `dist/portal-web` (relative asset URLs), served as static files with its index for `/`. Without a
 * build (a checkout before `npm run build`), `/` is a short page saying how to build it.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** `<package>/dist/portal-web`: the same from `src/portal` (checkout) and `dist/portal` (installed). */
export function defaultPortalWebDir(): string {
  return path.resolve(__dirname, '..', '..', 'dist', 'portal-web');
}

/** The page may load its own scripts, styles and images and call its own API, nothing else. */
export const PORTAL_CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

export const PORTAL_NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>fw-gen portal</title></head>
<body><main><h1>fw-gen portal</h1>
<p>The portal's page is not built in this installation. Build it with <code>npm run build -w @fw/generator</code>
(or <code>npm run build-web</code> in tools/generator), then reload. The API under <code>/api</code> works without it.</p>
</main></body></html>
`;

/** The built index page, read once; undefined while there is no build. */
export function makeIndexReader(dir: string): () => string | undefined {
  let index: string | undefined;
  return () => {
    if (index === undefined) {
      const file = path.join(dir, 'index.html');
      if (existsSync(file)) index = readFileSync(file, 'utf8');
    }
    return index;
  };
}
