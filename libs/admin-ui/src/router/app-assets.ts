/**
 * Where the built single-page app is inside this package (`dist/app`, written by
 * `npm run build-web`).
 */
import * as path from 'node:path';

/** `<package>/dist/app`: the same from `src/router` (checkout) and `dist/router` (installed). */
export function defaultAdminUiAssetsDir(): string {
  return path.resolve(__dirname, '..', '..', 'dist', 'app');
}
