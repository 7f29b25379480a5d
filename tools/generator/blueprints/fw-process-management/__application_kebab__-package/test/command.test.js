// The deployable's command answers as an operator expects: usage, and a clear refusal without a database.
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { test } = require('node:test');

const BIN = path.join(__dirname, '../bin/{{applicationKebab}}.js');

test('--help prints the usage and exits 0; an unknown command exits 2', () => {
  const help = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stderr, /usage: {{applicationKebab}} worker \| serve \| seed/);
  assert.equal(spawnSync(process.execPath, [BIN, 'dance'], { encoding: 'utf8' }).status, 2);
});

test('seed without PROCESS_DATABASE_URL says what to set and exits 1', () => {
  const env = { ...process.env };
  delete env.PROCESS_DATABASE_URL;
  const run = spawnSync(process.execPath, [BIN, 'seed'], { encoding: 'utf8', env });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /PROCESS_DATABASE_URL is not set/);
});

test('seed on an embedded database seeds the definitions, then keeps them', () => {
  const dir = require('node:fs').mkdtempSync(path.join(require('node:os').tmpdir(), '{{applicationKebab}}-seed-'));
  try {
    const env = { ...process.env, PROCESS_DATABASE_URL: `pglite:${dir}` };
    const migrate = spawnSync(process.execPath, [require.resolve('@fw/migrate/package.json').replace(/package\.json$/, 'dist/main.js'), '--database-url', `pglite:${dir}`], { encoding: 'utf8', env });
    assert.equal(migrate.status, 0, migrate.stderr);
    const first = spawnSync(process.execPath, [BIN, 'seed'], { encoding: 'utf8', env });
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /definitions: {{processes.length}} seeded, 0 kept/);
    const second = spawnSync(process.execPath, [BIN, 'seed'], { encoding: 'utf8', env });
    assert.match(second.stdout, /definitions: 0 seeded, {{processes.length}} kept/);
  } finally {
    require('node:fs').rmSync(dir, { recursive: true, force: true });
  }
});
