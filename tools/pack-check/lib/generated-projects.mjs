// Generated projects are real: for every blueprint the installed fw-gen ships, write its sample
// input (-g … -o), generate it (-f) with packageSource local:<the tarballs folder>, then npm install
// and npm test in the generated project, as a user of @fw/generator would. All installs share the
// user's npm cache (warm from the install before) and run one at a time under the npm lock.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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

/**
 * @param {{ app: string, tmp: string, tarballs: string }} options `app`: the install of every tarball
 * (its node_modules/@fw/generator is the generator under test).
 */
export function checkGeneratedProjects({ app, tmp, tarballs }) {
  const bin = path.join(app, 'node_modules/@fw/generator/dist/main.js');
  const names = blueprintNames(bin, app);
  assert.ok(
    names.includes('fw-process-management'),
    `fw-gen --list names fw-process-management (got ${names.join(', ')})`,
  );
  for (const name of names) {
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
    const env = { ...process.env, FW_LOG_LEVEL: 'error' };
    let test;
    const testSeconds = timed(() => {
      test = run('npm', ['test', '--silent'], { cwd: project, env, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    });
    assert.equal(
      test.status,
      0,
      `${name}: npm test of the generated project failed:\n${test.stdout.slice(-4000)}\n${test.stderr.slice(-4000)}`,
    );
    const counts = [...test.stdout.matchAll(/^# pass (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    console.log(
      `  ${name}: generated ${path.basename(project)}, npm install ${install} s, npm test ${testSeconds} s (${counts} tests passed)`,
    );
  }
}
