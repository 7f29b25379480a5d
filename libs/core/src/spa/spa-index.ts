/**
 * The index page of a built single-page app, read from its folder when first asked for and again
 * after a miss (an app built while the server runs is picked up at the next request), optionally
 * with a `<base href>` for the path it is served under.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface SpaIndex {
  /** The page for the mount path `basePath` (ending in '/'), or undefined while the app is not built. */
  pageFor(basePath: string): string | undefined;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * @example
 * const index = makeSpaIndex('/srv/app', { baseHref: true });
 * index.pageFor('/fw/admin/');   // '<!doctype html><html><head><base href="/fw/admin/">…' or undefined
 */
export function makeSpaIndex(dir: string, options: { baseHref: boolean }): SpaIndex {
  let template: string | undefined;
  // One page per mount path: a host mounts an app at a handful of paths at most.
  const rendered = new Map<string, string>();
  return {
    pageFor(basePath) {
      if (template === undefined) {
        const file = path.join(dir, 'index.html');
        if (!existsSync(file)) return undefined;
        template = readFileSync(file, 'utf8');
      }
      if (!options.baseHref) return template;
      let page = rendered.get(basePath);
      if (page === undefined) {
        page = template.replace(/<head>/i, `<head><base href="${escapeAttribute(basePath)}">`);
        rendered.set(basePath, page);
      }
      return page;
    },
  };
}
