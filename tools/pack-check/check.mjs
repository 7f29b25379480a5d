// Proof that the publishable packages work outside the workspace (see README.md):
//   node tools/pack-check/check.mjs [--no-build]
// 1. builds every package; checks each one's dependencies against its imports and its tarball's
//    contents; 2. packs them all and installs the tarballs into an empty folder; 3. there, runs
//    the bins as an operator would, against a fresh PostgreSQL database and on PGlite, and the
//    query-core README example. Exit 0 when all of it holds, 1 with what failed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDependencies } from './lib/check-dependencies.mjs';
import { checkTarball, packListing } from './lib/check-tarball.mjs';
import {
  checkAdminDev,
  checkAdminProduction,
  checkBinFlags,
  checkMigrate,
  checkQueryHost,
} from './lib/installed-hosts.mjs';
import { run } from './lib/processes.mjs';
import { checkStrictConsumer } from './lib/strict-consumer.mjs';
import { checkWorkerInstall } from './lib/worker-install.mjs';
import { checkDurableWorkersGuide } from './lib/durable-workers-guide.mjs';
import { checkGeneratedProjects } from './lib/generated-projects.mjs';
import { publishablePackages } from './lib/workspace-packages.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const EXAMPLE_ROWS =
  'ROWS [{"id":1,"title":"Dune","price":9.99},{"id":2,"title":"Dune Messiah","price":8.5}] MAXROWS 2';
const SERVER_URL =
  process.env.FW_PACK_CHECK_DATABASE_URL ||
  process.env.FW_TEST_DATABASE_URL ||
  'postgres://postgres@127.0.0.1:5432/postgres';

function sh(command, args, options = {}) {
  execFileSync(command, args, { stdio: 'inherit', cwd: ROOT, ...options });
}

function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function staticChecks(packages) {
  console.log('== dependencies and tarball contents');
  const problems = [];
  console.log('| package | files | packed | unpacked |\n|---|---|---|---|');
  for (const pkg of packages) {
    problems.push(...checkDependencies(pkg, packages));
    const listing = packListing(ROOT, pkg.name);
    problems.push(...checkTarball(pkg, listing));
    console.log(`| ${pkg.name} | ${listing.entryCount} | ${kib(listing.size)} | ${kib(listing.unpackedSize)} |`);
  }
  if (problems.length > 0) throw new Error(`package problems:\n  ${problems.join('\n  ')}`);
}

/** The @types/node range of the workspace: what a TypeScript consumer here would install. */
function rootTypesNode() {
  return JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).devDependencies['@types/node'];
}

function packAndInstall(packages, tmp) {
  console.log('== pack and install into an empty project');
  const tarballs = path.join(tmp, 'tarballs');
  const app = path.join(tmp, 'app');
  mkdirSync(tarballs, { recursive: true });
  mkdirSync(app, { recursive: true });
  sh('npm', ['pack', '--silent', '--pack-destination', tarballs, ...packages.flatMap((p) => ['-w', p.name])], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const files = readdirSync(tarballs).filter((f) => f.endsWith('.tgz'));
  assert.equal(files.length, packages.length, `expected ${packages.length} tarballs, got ${files.join(', ')}`);
  sh('npm', ['init', '-y', '--silent'], { cwd: app, stdio: 'ignore' });
  // @types/node: the consumer's own, as any TypeScript project has it (for the strict compile).
  const typesNode = rootTypesNode();
  // The optional peers (PGlite, express, the MCP SDK), as a user of every entry point installs them.
  const peers = [
    ...new Set(
      packages.flatMap((p) =>
        Object.entries(p.manifest.peerDependencies ?? {}).map(([name, range]) => `${name}@${range}`),
      ),
    ),
  ];
  sh(
    'flock',
    [
      '/tmp/fw-npm.lock',
      'npm',
      'install',
      '--no-audit',
      '--no-fund',
      '--silent',
      ...files.map((f) => path.join(tarballs, f)),
      `@types/node@${typesNode}`,
      ...peers,
    ],
    { cwd: app },
  );
  for (const pkg of packages) {
    const installed = path.join(app, 'node_modules', pkg.name);
    assert.ok(existsSync(path.join(installed, 'package.json')), `${pkg.name} is installed`);
    assert.ok(!existsSync(path.join(installed, 'src')), `${pkg.name} ships no sources`);
  }
  console.log(`  ${files.length} tarballs installed into ${app}`);
  return app;
}

async function withScratchDatabase(fn) {
  const pg = createRequire(path.join(ROOT, 'package.json'))('pg');
  const server = new URL(SERVER_URL);
  const name = `fw_pack_check_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(SERVER_URL);
  target.pathname = `/${name}`;
  const conn = {
    host: server.hostname,
    port: server.port || '5432',
    database: name,
    user: decodeURIComponent(server.username) || 'postgres',
    url: target.toString(),
  };
  try {
    return await fn(conn, pg);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

async function seedBooks(pg, url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `create table pack_book (id int primary key, title text not null); insert into pack_book values (1, 'Dune'), (2, 'Dune Messiah'), (3, 'Solaris')`,
  );
  await client.end();
}

function runReadmeExample(app) {
  console.log('== the query-core README example');
  const dir = path.join(app, 'readme-example');
  sh(
    process.execPath,
    [path.join(HERE, 'extract-readme-example.mjs'), path.join(ROOT, 'libs/query-core/README.md'), dir],
    { stdio: 'ignore' },
  );
  // Resolve @fw/* from the installed project: the example folder sits inside it.
  const result = run(process.execPath, ['example.mjs'], { cwd: dir, env: { ...process.env, FW_LOG_LEVEL: 'silent' } });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(
    result.stdout.split('\n').find((l) => l.startsWith('ROWS ')),
    EXAMPLE_ROWS,
  );
  console.log(`  ${EXAMPLE_ROWS}`);
}

/** The `*.sql` files of the `migrations/` folder of every package under `parent`, sorted. */
function migrationFilesOf(parent) {
  return readdirSync(parent)
    .map((pkg) => path.join(parent, pkg, 'migrations'))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.sql')))
    .sort();
}

async function main() {
  const noBuild = process.argv.includes('--no-build');
  const packages = publishablePackages(ROOT);
  if (!noBuild) {
    console.log('== build');
    sh('npx', ['nx', 'run-many', '-t', 'build', '--output-style=static'], {
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  staticChecks(packages);
  const tmp = mkdtempSync(path.join(tmpdir(), 'fw-pack-check-'));
  try {
    const app = packAndInstall(packages, tmp);
    const version = (name) => packages.find((p) => p.name === name).version;
    const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', FW_LOG_LEVEL: 'warn' };
    console.log('== declarations');
    checkStrictConsumer(app, packages, path.join(ROOT, 'node_modules/typescript/bin/tsc'));
    console.log('== the bins');
    checkBinFlags(app, [
      ['fw-migrate', version('@fw/migrate')],
      ['fw-admin-server', version('@fw/admin-server')],
      ['fw-query-host', version('@fw/query-host')],
    ]);
    const migrations = migrationFilesOf(path.join(app, 'node_modules/@fw'));
    assert.deepEqual(
      migrations,
      migrationFilesOf(path.join(ROOT, 'libs')),
      'the installed libraries carry every migration of the workspace (each in its migrations/ folder)',
    );
    await withScratchDatabase(async (conn, pg) => {
      console.log(`== on PostgreSQL (${conn.host}:${conn.port}/${conn.database})`);
      checkMigrate(app, conn.url, migrations.length);
      await checkAdminProduction(app, conn, baseEnv);
      await seedBooks(pg, conn.url);
      await checkQueryHost(app, conn, baseEnv);
    });
    console.log('== on PGlite');
    await checkAdminDev(app, baseEnv);
    runReadmeExample(app);
    console.log('== a PostgreSQL-only worker install');
    const workerApp = checkWorkerInstall(tmp, path.join(tmp, 'tarballs'), packages);
    await withScratchDatabase((conn, pg) =>
      checkDurableWorkersGuide({
        root: ROOT,
        appDir: workerApp,
        migrateBin: path.join(app, 'node_modules/.bin/fw-migrate'),
        tsc: path.join(ROOT, 'node_modules/typescript/bin/tsc'),
        conn,
        pg,
        typesNode: rootTypesNode(),
      }),
    );
    console.log('== generated projects (fw-gen from the tarball, @fw packages from the tarballs)');
    await checkGeneratedProjects({ app, tmp, tarballs: path.join(tmp, 'tarballs') });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(
    `pack-check: OK (${packages.length} packages installed from their tarballs; hosts, migrations and the README example run there)`,
  );
}

main().catch((err) => {
  console.error(`pack-check: FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
