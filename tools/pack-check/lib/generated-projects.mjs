// Generated projects are real: for every blueprint the installed fw-gen ships, write its sample
// input (-g … -o), generate it (-f) with packageSource local:<the tarballs folder>, then npm install
// and npm test in the generated project, as a user of @fw/generator would. All installs share the
// user's npm cache (warm from the install before) and run one at a time under the npm lock; the
// projects' tests run two at a time.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { run } from './processes.mjs';

function fwGen(bin, args, cwd) {
  const result = run(process.execPath, [bin, ...args], { cwd, timeout: 120_000 });
  assert.equal(
    result.status,
    0,
    `fw-gen ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`,
  );
  return result.stdout;
}

function blueprintNames(bin, cwd) {
  return fwGen(bin, ['--list'], cwd)
    .split('\n')
    .map((line) => line.split(/\s+/)[0])
    .filter(Boolean);
}

function timed(fn) {
  const started = Date.now();
  fn();
  return ((Date.now() - started) / 1000).toFixed(1);
}

/** Generates the blueprint `name` into its own folder under `tmp` and installs it; its folder and the install's seconds. */
function generateAndInstall(bin, name, { tmp, tarballs }) {
  const dir = path.join(tmp, `generated-${name}`);
  mkdirSync(path.join(dir, 'config'), { recursive: true });
  const config = {
    fwVersion: '2.1.31',
    package: 'example',
    version: '0.1.0',
    destFolder: '.',
    packageSource: `local:${tarballs}`,
  };
  writeFileSync(path.join(dir, 'config/generator.json'), JSON.stringify(config, null, 2));
  fwGen(bin, ['-g', name, '-o', 'sample.json'], dir);
  const out = fwGen(bin, ['-f', 'sample.json'], dir);
  const line = out.split('\n').find((l) => l.startsWith('generated '));
  assert.ok(line, `fw-gen -f prints where it generated:\n${out}`);
  const project = line.replace(/^generated \S+ \S+ into (.+) \(\d+ files, \d+ ms\)$/, '$1');
  const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
  assert.ok(manifest.scripts?.test, `${name}: the generated project has an npm test script`);
  const install = timed(() =>
    execFileSync(
      'flock',
      ['/tmp/fw-npm.lock', 'npm', 'install', '--no-audit', '--no-fund', '--silent', '--prefer-offline'],
      { cwd: project, stdio: ['ignore', 'ignore', 'inherit'] },
    ),
  );
  return { name, project, install };
}

/** `npm test` in `project`: its exit status, output and seconds. */
function npmTest(project) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['test', '--silent'], {
      cwd: project,
      env: { ...process.env, FW_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d.toString()));
    child.stderr.on('data', (d) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status: status ?? signal, stdout, stderr, seconds: ((Date.now() - started) / 1000).toFixed(1) });
    });
  });
}

/** Runs `work` over `items`, at most `limit` at a time; the results in the order of `items`. */
async function inParallel(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/**
 * @param {{ app: string, tmp: string, tarballs: string }} options `app`: the install of every tarball
 * (its node_modules/@fw/generator is the generator under test).
 */
export async function checkGeneratedProjects({ app, tmp, tarballs }) {
  const bin = path.join(app, 'node_modules/@fw/generator/dist/main.js');
  const names = blueprintNames(bin, app);
  assert.ok(
    names.includes('fw-process-management'),
    `fw-gen --list names fw-process-management (got ${names.join(', ')})`,
  );
  // Generation and installs one at a time (the npm lock); the projects' test runs two at a time:
  // each is one Node process most of its time, and this machine has two cores.
  let projects;
  const installSeconds = timed(
    () => (projects = names.map((name) => generateAndInstall(bin, name, { tmp, tarballs }))),
  );
  const started = Date.now();
  const tests = await inParallel(projects, 2, ({ project }) => npmTest(project));
  const testSeconds = ((Date.now() - started) / 1000).toFixed(1);
  for (const [i, { name, project, install }] of projects.entries()) {
    const test = tests[i];
    assert.equal(
      test.status,
      0,
      `${name}: npm test of the generated project failed:\n${test.stdout.slice(-4000)}\n${test.stderr.slice(-4000)}`,
    );
    const counts = [...test.stdout.matchAll(/^# pass (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    console.log(
      `  ${name}: generated ${path.basename(project)}, npm install ${install} s, npm test ${test.seconds} s (${counts} tests passed)`,
    );
  }
  console.log(
    `  ${projects.length} projects: generated and installed in ${installSeconds} s, tested in ${testSeconds} s`,
  );
}
