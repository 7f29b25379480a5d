/**
 * Builds workspace packages through Nx (a no-op for what is cached), for benchmarks that measure
 * the built JavaScript a user installs rather than the TypeScript sources.
 *
 * @example
 * buildPackages(['@fw/admin-server', '@fw/query-host']); // throws with the build's output on failure
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');

/** Runs `nx run-many -t build` for `projects` (names as Nx knows them, e.g. `@fw/core`). */
export function buildPackages(projects: readonly string[]): void {
  const result = spawnSync(
    'npx',
    ['nx', 'run-many', '-t', 'build', `--projects=${projects.join(',')}`, '--output-style=static'],
    {
      cwd: WORKSPACE_ROOT,
      env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' },
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) {
    throw new Error(
      `building ${projects.join(', ')} failed (exit ${result.status ?? result.signal}; npm run build shows why):\n${`${result.stdout}${result.stderr}`.slice(-2000)}`,
    );
  }
}
