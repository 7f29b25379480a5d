// docs/durable-workers.md as a user follows it, in the worker-only install: its files are
// extracted (each code block named by the `file` written just before it), worker.ts is compiled
// strictly, and the program runs as the guide's last section says — two worker processes, a run
// of 40 orders, one worker killed with SIGKILL mid-run, the other stopped with SIGTERM.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { eventually, run, start } from './processes.mjs';

/** Writes the guide's named code blocks into `dir`; a `package.json` block is merged into the existing one. */
export function extractGuide(guideFile, dir) {
  const text = readFileSync(guideFile, 'utf8');
  const written = [];
  for (const match of text.matchAll(/`([\w.-]+\.(?:ts|json))`[^`]*?\n\n```(?:ts|json)\n([\s\S]*?)```/g)) {
    const [, name, code] = match;
    const target = path.join(dir, name);
    if (name === 'package.json') {
      const current = JSON.parse(readFileSync(target, 'utf8'));
      writeFileSync(target, JSON.stringify({ ...current, ...JSON.parse(code) }, null, 2));
    } else {
      writeFileSync(target, code);
    }
    written.push(name);
  }
  assert.deepEqual(
    written.sort(),
    ['package.json', 'tsconfig.json', 'worker.ts'],
    'the guide names worker.ts, package.json and tsconfig.json',
  );
  return written;
}

async function one(pg, url, text, params = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows[0];
  } finally {
    await client.end();
  }
}

export async function checkDurableWorkersGuide({ root, appDir, migrateBin, tsc, conn, pg, typesNode }) {
  extractGuide(path.join(root, 'docs/durable-workers.md'), appDir);
  execFileSync(
    'flock',
    ['/tmp/fw-npm.lock', 'npm', 'install', '--no-audit', '--no-fund', '--silent', '-D', `@types/node@${typesNode}`],
    { cwd: appDir, stdio: 'inherit' },
  );
  const compiled = run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: appDir });
  assert.equal(
    compiled.status,
    0,
    `worker.ts of the guide does not compile strictly:\n${compiled.stdout}${compiled.stderr}`,
  );
  const migrated = run(migrateBin, ['--database-url', conn.url], { cwd: appDir });
  assert.equal(migrated.status, 0, migrated.stderr);

  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    FW_LOG_LEVEL: 'warn',
    DATABASE_URL: conn.url,
    RECOVERY_SECONDS: '3',
    STEP_MILLIS: '300',
    CONCURRENCY: '4',
    DRAIN_MILLIS: '2000',
  };
  const a = start(process.execPath, ['dist/worker.js'], { cwd: appDir, env });
  const b = start(process.execPath, ['dist/worker.js'], { cwd: appDir, env });
  try {
    await a.waitFor(/WORKING \d+/);
    await b.waitFor(/WORKING \d+/);
    const created = run(process.execPath, ['dist/worker.js', 'create', '40'], { cwd: appDir, env, timeout: 30_000 });
    assert.equal(created.status, 0, created.stderr);
    const runId = /RUN (\S+)/.exec(created.stdout)?.[1];
    assert.ok(runId, `create printed no run id: ${created.stdout}`);
    // Kill worker A in the middle of the run.
    await eventually(
      async () => {
        const { n } = await one(
          pg,
          conn.url,
          `select count(*)::int as n from fw_process where parent_id = $1 and state_id = 'PROCESSED'`,
          [runId],
        );
        return n >= 5 ? n : undefined;
      },
      30_000,
      'the first children to finish',
    );
    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    const root = await eventually(
      async () => {
        const row = await one(pg, conn.url, 'select state_id, output from fw_process where id = $1', [runId]);
        return row.state_id === 'PROCESSED' || row.state_id === 'PROCESSED_WITH_ERRORS' ? row : undefined;
      },
      60_000,
      'the run to finish after the kill',
    );
    const recoveredMillis = Date.now() - killedAt;
    assert.equal(root.state_id, 'PROCESSED');
    assert.deepEqual(root.output, { orders: 40, total: 2050 });
    const reports = await one(
      pg,
      conn.url,
      'select count(*)::int as n, count(distinct child_id)::int as d from fw_process_child_report where parent_id = $1',
      [runId],
    );
    assert.deepEqual(reports, { n: 40, d: 40 }, 'each child counted once');
    const stopStarted = Date.now();
    assert.equal(await b.stop(), 0, `worker B exit code; output: ${b.stderr()}`);
    console.log(
      `  docs/durable-workers.md: worker.ts compiles strictly; 2 workers, one killed with SIGKILL mid-run: the run finished ${recoveredMillis} ms later with { orders: 40, total: 2050 }, 40 children counted once; the other stopped on SIGTERM in ${Date.now() - stopStarted} ms`,
    );
  } finally {
    a.child.kill('SIGKILL');
    b.child.kill('SIGKILL');
  }
}
