/**
 * The built single-page app inside this package (`dist/app`, written by `npm run build-web`), and
 * its index page with a `<base href>` for the path it is served under, so the same build works at
 * `/fw/admin`, at another base path, and for deep links (`/fw/admin/services/query`).
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** `<package>/dist/app`: the same from `src/router` (checkout) and `dist/router` (installed). */
export function defaultAdminUiAssetsDir(): string {
  return path.resolve(__dirname, '..', '..', 'dist', 'app');
}

export interface AppAssets {
  dir: string;
  /** The index page for a base path ending in '/', or undefined when the app is not built. */
  indexFor(basePath: string): string | undefined;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function makeAppAssets(dir: string): AppAssets {
  let template: string | undefined;
  const rendered = new Map<string, string>();
  return {
    dir,
    indexFor(basePath) {
      if (template === undefined) {
        const file = path.join(dir, 'index.html');
        if (!existsSync(file)) return undefined;
        template = readFileSync(file, 'utf8');
      }
      let page = rendered.get(basePath);
      if (page === undefined) {
        page = template.replace(/<head>/i, `<head><base href="${escapeAttribute(basePath)}">`);
        // A handful of mount paths per process at most; no need to bound it further.
        rendered.set(basePath, page);
      }
      return page;
    },
  };
}
