/**
 * Where the portal's page is: the React app of `portal-web/`, built by `npm run build-web` into
 * `dist/portal-web` (relative asset URLs). `@fw/core`'s `serveSpa` serves it (see portal-app.ts).
 */
import * as path from 'node:path';

/** `<package>/dist/portal-web`: the same from `src/portal` (checkout) and `dist/portal` (installed). */
export function defaultPortalWebDir(): string {
  return path.resolve(__dirname, '..', '..', 'dist', 'portal-web');
}
