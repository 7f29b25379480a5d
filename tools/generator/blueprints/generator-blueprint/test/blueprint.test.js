// The {{blueprintName}} blueprint, run by the real fw-gen: its sample generates a package whose own
// tests pass, and generating twice from the same answers gives the same bytes.
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const FW_GEN = path.join(path.dirname(require.resolve('@fw/generator/package.json')), 'dist/main.js');
const BLUEPRINTS = path.join(__dirname, '../blueprints');

function fwGen(args, cwd) {
  const run = spawnSync(process.execPath, [FW_GEN, '--blueprints', BLUEPRINTS, ...args], { cwd, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

function files(dir, rel = '') {
  return readdirSync(dir).sort().flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? files(full, `${rel}${entry}/`) : [[`${rel}${entry}`, readFileSync(full, 'utf8')]];
  });
}

test('fw-gen lists the blueprint and generates its sample into a package whose tests pass', () => {
  const dir = mkdtempSync(path.join(tmpdir(), '{{blueprintNameKebab}}-'));
  try {
    assert.match(fwGen(['--list'], dir), /^{{blueprintName}}\s/m);
    fwGen(['-g', '{{blueprintName}}', '-o', 'input.json'], dir);
    assert.match(fwGen(['-f', 'input.json'], dir), /generated {{blueprintName}} 0\.1\.0 into/);
    const project = path.join(dir, 'greeter');
    assert.match(readFileSync(path.join(project, 'src/greeter.js'), 'utf8'), /from greeter/);
    const npmTest = spawnSync('npm', ['test'], { cwd: project, encoding: 'utf8' });
    assert.equal(npmTest.status, 0, npmTest.stdout + npmTest.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('generating twice from the same answers gives the same bytes', () => {
  const dir = mkdtempSync(path.join(tmpdir(), '{{blueprintNameKebab}}-'));
  try {
    fwGen(['-g', '{{blueprintName}}', '-o', 'input.json'], dir);
    fwGen(['-f', 'input.json'], dir);
    const first = files(path.join(dir, 'greeter'));
    rmSync(path.join(dir, 'greeter'), { recursive: true });
    fwGen(['-f', 'input.json'], dir);
    assert.deepEqual(files(path.join(dir, 'greeter')), first);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
