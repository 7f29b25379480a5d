import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createTestDatabase, databaseTargets, readWorkspaceMigrations } from '@fw/test-support';
import { fwMigrations, MIGRATE_VERSION, migrateMain, parseMigrateArgs, readFwMigrations, UsageError } from '../src';

const ROOT = path.resolve(__dirname, '../../..');
const TSX_CLI = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const MAIN = path.join(ROOT, 'tools/migrate/src/main.ts');

describe('parseMigrateArgs', () => {
  it('reads flags in both spellings and resolves --dir against the working directory', () => {
    expect(
      parseMigrateArgs(['--database-url', 'pglite:memory:', '--username=u', '--password', 'p', '--dir', 'm'], '/w'),
    ).toEqual({
      databaseUrl: 'pglite:memory:',
      username: 'u',
      password: 'p',
      dir: '/w/m',
    });
  });

  it('reads --pooler (what sits in front of the server)', () => {
    expect(parseMigrateArgs(['--database-url', 'postgres://b:6432/app', '--pooler', 'transaction']).pooler).toBe(
      'transaction',
    );
    expect(parseMigrateArgs(['--database-url', 'postgres://b:6432/app']).pooler).toBeUndefined();
  });

  it('without --dir names no folder: the framework schema is applied', () => {
    expect(parseMigrateArgs(['--database-url=pglite:memory:'])).toEqual({ databaseUrl: 'pglite:memory:' });
  });

  it.each([
    [[], /--database-url is required/],
    [['--database-url'], /--database-url needs a value/],
    [['--database-url', '--dir', 'x'], /--database-url needs a value/],
    [['--url', 'x'], /unknown argument '--url'/],
    [['--database-url', 'x', '--pooler', 'pgbouncer'], /--pooler must be one of none, session, transaction/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseMigrateArgs(argv)).toThrow(UsageError);
    expect(() => parseMigrateArgs(argv)).toThrow(message);
  });
});

describe('fwMigrations', () => {
  it('composes the migrations of every library of the workspace, in number order', () => {
    const composed = fwMigrations();
    expect(composed).toEqual(readWorkspaceMigrations());
    const numbers = composed.map((m) => Number(/^\d+/.exec(m.name)?.[0]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(composed.map((m) => m.name)).toContain('0001_query_catalog.sql');
  });

  it('keeps readFwMigrations, the same list under its former name', () => {
    expect(readFwMigrations()).toEqual(fwMigrations());
  });
});

describe('migrateMain', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fw-migrate-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('applies the workspace migrations to an embedded database [pglite]', async () => {
    // In-memory: a file-backed PGlite keeps Jest's VM-modules runtime from exiting after close.
    const out: string[] = [];
    const err: string[] = [];
    expect(
      await migrateMain(
        ['--database-url', 'pglite:memory:'],
        (l) => out.push(l),
        (l) => err.push(l),
      ),
    ).toBe(0);
    expect(err).toEqual([]);
    const names = fwMigrations().map((m) => m.name);
    expect(out.slice(0, -1)).toEqual(names.map((n) => `applied          ${n}`));
    expect(out[out.length - 1]).toBe(`pglite:memory:: ${names.length} applied, 0 already applied`);
  });

  // Registered only when FW_TEST_DATABASE_URL names a server (like describeEachDatabase).
  for (const _target of databaseTargets().filter((t) => t === 'postgres'))
    it('applies the workspace migrations once, then reports them as already applied [postgres]', async () => {
      const testDb = await createTestDatabase('postgres', { migrate: false });
      await testDb.database.close();
      try {
        const count = fwMigrations().length;
        const out: string[] = [];
        const err: string[] = [];
        expect(
          await migrateMain(
            ['--database-url', testDb.url],
            (l) => out.push(l),
            (l) => err.push(l),
          ),
        ).toBe(0);
        expect(err).toEqual([]);
        expect(out).toContain('applied          0001_query_catalog.sql');
        expect(out[out.length - 1]).toMatch(new RegExp(`: ${count} applied, 0 already applied$`));

        const again: string[] = [];
        expect(
          await migrateMain(
            ['--database-url', testDb.url],
            (l) => again.push(l),
            (l) => err.push(l),
          ),
        ).toBe(0);
        expect(again).toContain('already applied  0001_query_catalog.sql');
        expect(again[again.length - 1]).toMatch(new RegExp(`: 0 applied, ${count} already applied$`));
      } finally {
        await testDb.dispose();
      }
    });

  it('applies a custom folder and reports a failing migration with exit 1', async () => {
    const migrations = path.join(dir, 'custom');
    mkdirSync(migrations);
    writeFileSync(path.join(migrations, '001_ok.sql'), 'create table ok_probe (id int);');
    writeFileSync(path.join(migrations, '002_bad.sql'), 'create table broken (;');
    const err: string[] = [];
    const code = await migrateMain(
      ['--database-url', 'pglite:memory:', '--dir', migrations],
      () => undefined,
      (l) => err.push(l),
    );
    expect(code).toBe(1);
    expect(err.join('\n')).toMatch(/migrate: Migration 002_bad.sql failed on pglite:memory:/);
  });

  it('reports an unreachable server with exit 1 and no password', async () => {
    const err: string[] = [];
    const code = await migrateMain(
      ['--database-url', 'postgres://postgres:hunter2@127.0.0.1:1/x'],
      () => undefined,
      (l) => err.push(l),
    );
    expect(code).toBe(1);
    expect(err.join('\n')).toMatch(/cannot migrate postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/x/);
    expect(err.join('\n')).not.toContain('hunter2');
  });

  it('prints the usage and exits 2 on bad arguments (real process)', () => {
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(ROOT, 'tools/migrate/src/main.ts'), '--bogus'],
      { encoding: 'utf8', cwd: ROOT },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("migrate: unknown argument '--bogus'");
    expect(result.stderr).toContain('usage: fw-migrate --database-url URL');
  });

  it('answers --help and --version with exit 0 (real process)', () => {
    const run = (flag: string) => spawnSync(process.execPath, [TSX_CLI, MAIN, flag], { encoding: 'utf8', cwd: ROOT });
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('usage: fw-migrate --database-url URL');
    const version = run('--version');
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(`fw-migrate ${MIGRATE_VERSION}`);
    expect(MIGRATE_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  // Registered only when FW_TEST_DATABASE_URL names a server. The pool used to outlive the run by
  // its 30 s idle timeout, so the command printed its result and then hung.
  for (const _target of databaseTargets().filter((t) => t === 'postgres'))
    it('exits within seconds (not after the pool idle timeout) once done on an up-to-date database (real process) [postgres]', async () => {
      const testDb = await createTestDatabase('postgres');
      await testDb.database.close();
      try {
        const started = Date.now();
        const result = spawnSync(process.execPath, [TSX_CLI, MAIN, '--database-url', testDb.url], {
          encoding: 'utf8',
          cwd: ROOT,
          timeout: 20_000,
        });
        const elapsed = Date.now() - started;
        expect(result.status).toBe(0);
        expect(result.stdout).toMatch(/: 0 applied, \d+ already applied/);
        // 10 s, not the 3 s it takes on an idle machine: a cold tsx start on a loaded CI machine is slow,
        // and the bug this guards against held the process for the pool's 30 s idle timeout.
        expect(elapsed).toBeLessThan(10_000);
      } finally {
        await testDb.dispose();
      }
    });
});
