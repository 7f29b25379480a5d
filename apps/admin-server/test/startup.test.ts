import { isConfigError } from '@fw/core';
import { createTestDatabase, describeEachDatabase, postgresServerUrl, type TestDatabase } from '@fw/test-support';
import { adminConfigFromEnv, createAdminServer, parseAdminArgs } from '../src';
import { KEY, spawnHost, testConfig } from './support';

describe('admin server settings', () => {
  it('reads the profile from --profile or FW_PROFILE', () => {
    expect(parseAdminArgs(['--profile', 'dev'], {}).profile).toBe('dev');
    expect(parseAdminArgs(['--profile=dev'], {}).profile).toBe('dev');
    expect(parseAdminArgs([], { FW_PROFILE: 'dev' }).profile).toBe('dev');
    expect(parseAdminArgs([], {}).profile).toBe('production');
    expect(() => parseAdminArgs(['--profile', 'staging'], {})).toThrow(/unknown profile/);
    expect(() => parseAdminArgs(['--port', '1'], {})).toThrow(/unknown argument/);
  });

  it('defaults to 127.0.0.1:8080 and refuses bad ports, missing database settings and short keys', () => {
    const env = { PROCESS_DATABASE_URL: 'postgres://db:5432/p', PROCESS_DATABASE_USERNAME: 'u', PROCESS_DATABASE_PASSWORD: 'p', PROCESS_MANAGEMENT_API_KEY: KEY };
    expect(adminConfigFromEnv('production', env, '/tmp')).toMatchObject({ port: 8080, bindAddress: '127.0.0.1', apiKey: KEY, database: { url: 'postgres://db:5432/p', username: 'u', password: 'p' } });
    expect(adminConfigFromEnv('production', { ...env, PROCESS_ADMIN_PORT: '9090', PROCESS_ADMIN_BIND_ADDRESS: '0.0.0.0' }, '/tmp')).toMatchObject({ port: 9090, bindAddress: '0.0.0.0' });
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_ADMIN_PORT: 'http' }, '/tmp')).toThrow(/PROCESS_ADMIN_PORT/);
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_DATABASE_PASSWORD: '' }, '/tmp')).toThrow(/PROCESS_DATABASE_PASSWORD is not set/);
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_MANAGEMENT_API_KEY: undefined }, '/tmp')).toThrow(/PROCESS_MANAGEMENT_API_KEY is not set/);
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_MANAGEMENT_API_KEY: 'short' }, '/tmp')).toThrow(/at least 32 characters/);
    expect(() => adminConfigFromEnv('dev', { PROCESS_MANAGEMENT_API_KEY: 'short' }, '/tmp')).toThrow(/at least 32 characters/);
    expect(adminConfigFromEnv('dev', {}, '/tmp/app')).toMatchObject({ apiKey: undefined, dataDir: '/tmp/app/.data', database: { url: 'pglite:/tmp/app/.data/process-db' } });
  });
});

describeEachDatabase(
  'admin server on a database without schema',
  (getDb) => {
    it('refuses to start outside dev, naming the missing table and npm run migrate, and creates nothing', async () => {
      let thrown: unknown;
      try {
        await createAdminServer({ config: testConfig(getDb()), database: getDb().database });
      } catch (err) {
        thrown = err;
      }
      expect(isConfigError(thrown)).toBe(true);
      expect((thrown as Error).message).toMatch(/missing table\(s\) fw_process, .*fw_crontab.*npm run migrate -- --database-url/);
      const rows = await getDb().database.withSession((s) => s.query<{ found: string | null }>(`select to_regclass('fw_process')::text as found`));
      expect(rows[0].found).toBeNull();
    });
  },
  { migrate: false },
);

interface Case {
  name: string;
  env: Record<string, string>;
  expected: RegExp;
}

describe('admin server startup failures (real process)', () => {
  let empty: TestDatabase | undefined;
  const cases: Case[] = [
    { name: 'missing PROCESS_DATABASE_URL', env: { PROCESS_MANAGEMENT_API_KEY: KEY }, expected: /PROCESS_DATABASE_URL is not set/ },
    {
      name: 'short key',
      env: { PROCESS_DATABASE_URL: 'postgres://127.0.0.1:1/x', PROCESS_DATABASE_USERNAME: 'u', PROCESS_DATABASE_PASSWORD: 'p', PROCESS_MANAGEMENT_API_KEY: 'too-short-key' },
      expected: /PROCESS_MANAGEMENT_API_KEY is too short \(13 characters\).*at least 32 characters/,
    },
    { name: 'short key in dev', env: { PROCESS_MANAGEMENT_API_KEY: 'too-short-key', FW_PROFILE: 'dev' }, expected: /PROCESS_MANAGEMENT_API_KEY is too short/ },
    { name: 'bad port', env: { PROCESS_ADMIN_PORT: '70000', FW_PROFILE: 'dev' }, expected: /PROCESS_ADMIN_PORT must be a port number/ },
  ];
  const outcomes = new Map<string, { code: number | null; stdout: string; stderr: string }>();

  beforeAll(async () => {
    const server = postgresServerUrl();
    if (server) {
      empty = await createTestDatabase('postgres', { migrate: false });
      const url = new URL(empty.url);
      const user = decodeURIComponent(url.username) || 'postgres';
      url.username = '';
      cases.push({
        name: 'missing schema outside dev',
        env: { PROCESS_DATABASE_URL: url.toString(), PROCESS_DATABASE_USERNAME: user, PROCESS_DATABASE_PASSWORD: decodeURIComponent(url.password) || 'unused', PROCESS_MANAGEMENT_API_KEY: KEY },
        expected: /missing table\(s\) fw_process.*npm run migrate -- --database-url/,
      });
    }
    await Promise.all(
      cases.map(async (c) => {
        const spawned = spawnHost([], c.env);
        const code = await spawned.exited;
        outcomes.set(c.name, { code, stdout: spawned.stdout(), stderr: spawned.stderr() });
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await empty?.dispose();
  }, 60_000);

  it('exits 1 before listening with one clear line, never printing the key', () => {
    expect(outcomes.size).toBe(cases.length);
    for (const c of cases) {
      const outcome = outcomes.get(c.name);
      expect({ name: c.name, code: outcome?.code }).toEqual({ name: c.name, code: 1 });
      const { stdout, stderr } = outcome as { stdout: string; stderr: string };
      expect(stdout).not.toContain('listening');
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^admin-server: cannot start: /);
      expect(lines[0]).toMatch(c.expected);
      expect(stderr).not.toContain(KEY);
      expect(stderr).not.toContain('too-short-key');
    }
  });
});
