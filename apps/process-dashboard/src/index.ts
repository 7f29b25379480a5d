/**
 * Server-side helpers of the process dashboard: where its built static files are, so a host (the
 * admin server) can serve them. The dashboard itself is a browser app (`web/`), built by
 * `npm run build-web` into `dist/web`.
 *
 * @example
 * const dir = processDashboardAssetsDir();
 * if (processDashboardBuilt()) app.use(express.static(dir));
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** The package root: this file is `src/index.ts` in the checkout or `dist/index.js` when installed. */
function packageRoot(): string {
  return path.resolve(__dirname, '..');
}

/** The folder of the built web app (`<package>/dist/web`), whether or not it was built. */
export function processDashboardAssetsDir(): string {
  return path.join(packageRoot(), 'dist', 'web');
}

/** True when `dist/web/index.html` exists (a checkout without `npm run build` has none). */
export function processDashboardBuilt(dir: string = processDashboardAssetsDir()): boolean {
  return existsSync(path.join(dir, 'index.html'));
}

/** Where the administration API is mounted; the dashboard calls nothing else. */
export const PROCESS_MANAGEMENT_API_PATH = '/process-management/api';
