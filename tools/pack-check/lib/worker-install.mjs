// A PostgreSQL-only worker host's install: the process packages without any host. It must not
// pull the embedded database (an optional peer of @fw/core), and asking it for a `pglite:` URL
// says what to install. Prints the install's node_modules size.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { run } from './processes.mjs';

export const WORKER_PACKAGES = [
  '@fw/core',
  '@fw/stm',
  '@fw/process-api',
  '@fw/leased-queue',
  '@fw/telemetry',
  '@fw/process-outbox',
  '@fw/process-service',
  '@fw/process-utils',
  '@fw/jdbc-process-starter',
];

/** @returns the folder of the install, for the durable-workers guide to run in. */
export function checkWorkerInstall(tmp, tarballs, packages) {
  const dir = path.join(tmp, 'worker-app');
  mkdirSync(dir, { recursive: true });
  execFileSync('npm', ['init', '-y', '--silent'], { cwd: dir, stdio: 'ignore' });
  const files = readdirSync(tarballs);
  const wanted = WORKER_PACKAGES.map((name) => {
    const pkg = packages.find((p) => p.name === name);
    const file = files.find((f) => f === `${name.slice(1).replace('/', '-')}-${pkg.version}.tgz`);
    assert.ok(file, `tarball of ${name}`);
    return path.join(tarballs, file);
  });
  execFileSync('flock', ['/tmp/fw-npm.lock', 'npm', 'install', '--no-audit', '--no-fund', '--silent', ...wanted], {
    cwd: dir,
    stdio: 'inherit',
  });
  for (const unwanted of ['@electric-sql/pglite', 'express', '@types/express']) {
    assert.ok(
      !existsSync(path.join(dir, 'node_modules', unwanted)),
      `a worker-only install pulls no ${unwanted} (optional peers of @fw/core and @fw/process-service)`,
    );
  }
  writeFileSync(
    path.join(dir, 'probe.cjs'),
    `const { createDatabase } = require('@fw/core');
try { createDatabase({ url: 'pglite:memory:' }); console.log('opened'); } catch (err) { console.log(err.message); }
`,
  );
  const probe = run(process.execPath, ['probe.cjs'], { cwd: dir });
  assert.match(probe.stdout, /needs the embedded database: install it with `npm install @electric-sql\/pglite`/);
  const size = execFileSync('du', ['-sk', 'node_modules'], { cwd: dir, encoding: 'utf8' }).split('\t')[0];
  const largest = execFileSync(
    'sh',
    ['-c', 'du -sk node_modules/* node_modules/@*/* 2>/dev/null | sort -rn | head -5'],
    { cwd: dir, encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .map((line) => {
      const [kb, name] = line.split('\t');
      return `${name.replace('node_modules/', '')} ${(Number(kb) / 1024).toFixed(1)} MiB`;
    });
  console.log(
    `  ${WORKER_PACKAGES.length} worker packages: no PGlite, no express; node_modules ${(Number(size) / 1024).toFixed(1)} MiB (largest: ${largest.join(', ')}); a pglite: URL names the package to install`,
  );
  return dir;
}
