import { isConfigError } from '@fw/core';
import {
  createTestDatabase,
  databaseTargets,
  describeEachDatabase,
  postgresServerUrl,
  type TestDatabase,
} from '@fw/test-support';
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
    expect(parseAdminArgs(['--version'], {})).toMatchObject({ version: true, help: false });
    expect(parseAdminArgs(['--help'], {})).toMatchObject({ version: false, help: true });
  });

  it('defaults to 127.0.0.1:8080 and refuses bad ports, missing database settings and short keys', () => {
    const env = {
      PROCESS_DATABASE_URL: 'postgres://db:5432/p',
      PROCESS_DATABASE_USERNAME: 'u',
      PROCESS_DATABASE_PASSWORD: 'p',
      PROCESS_MANAGEMENT_API_KEY: KEY,
    };
    expect(adminConfigFromEnv('production', env, '/tmp')).toMatchObject({
      port: 8080,
      bindAddress: '127.0.0.1',
      apiKey: KEY,
      database: { url: 'postgres://db:5432/p', username: 'u', password: 'p' },
    });
    expect(
      adminConfigFromEnv(
        'production',
        { ...env, PROCESS_ADMIN_PORT: '9090', PROCESS_ADMIN_BIND_ADDRESS: '0.0.0.0' },
        '/tmp',
      ),
    ).toMatchObject({ port: 9090, bindAddress: '0.0.0.0' });
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_ADMIN_PORT: 'http' }, '/tmp')).toThrow(
      /PROCESS_ADMIN_PORT/,
    );
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_DATABASE_PASSWORD: undefined }, '/tmp')).toThrow(
      /PROCESS_DATABASE_PASSWORD is not set/,
    );
    // Empty is set: trust, peer or .pgpass authentication; the URL's user and password then apply.
    expect(
      adminConfigFromEnv('production', { ...env, PROCESS_DATABASE_USERNAME: '', PROCESS_DATABASE_PASSWORD: '' }, '/tmp')
        .database,
    ).toEqual({ url: 'postgres://db:5432/p', username: undefined, password: undefined });
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_DATABASE_URL: undefined }, '/tmp')).toThrow(
      /PROCESS_DATABASE_URL is not set/,
    );
    // Behind PgBouncer's transaction pooling (libs/jdbc-process-starter/test/pgbouncer.test.ts runs the server there).
    expect(
      adminConfigFromEnv('production', { ...env, PROCESS_DATABASE_POOLER: 'transaction' }, '/tmp').database.pooler,
    ).toBe('transaction');
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_DATABASE_POOLER: 'pgbouncer' }, '/tmp')).toThrow(
      /PROCESS_DATABASE_POOLER must be one of none, session, transaction/,
    );
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_DATABASE_URL: '' }, '/tmp')).toThrow(
      /PROCESS_DATABASE_URL is empty/,
    );
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_MANAGEMENT_API_KEY: undefined }, '/tmp')).toThrow(
      /PROCESS_MANAGEMENT_API_KEY is not set/,
    );
    expect(() => adminConfigFromEnv('production', { ...env, PROCESS_MANAGEMENT_API_KEY: 'short' }, '/tmp')).toThrow(
      /at least 32 characters/,
    );
    expect(() => adminConfigFromEnv('dev', { PROCESS_MANAGEMENT_API_KEY: 'short' }, '/tmp')).toThrow(
      /at least 32 characters/,
    );
    expect(adminConfigFromEnv('dev', {}, '/tmp/app')).toMatchObject({
      apiKey: undefined,
      dataDir: '/tmp/app/.data',
      database: { url: 'pglite:/tmp/app/.data/process-db' },
    });
    // MCP on in dev, off in production unless FW_MCP_ENABLED says otherwise; the registry delegate by URL.
    expect(adminConfigFromEnv('dev', {}, '/tmp').mcpEnabled).toBe(true);
    expect(adminConfigFromEnv('production', env, '/tmp').mcpEnabled).toBe(false);
    expect(adminConfigFromEnv('production', { ...env, FW_MCP_ENABLED: 'true' }, '/tmp').mcpEnabled).toBe(true);
    expect(() => adminConfigFromEnv('dev', { FW_MCP_ENABLED: 'yes' }, '/tmp')).toThrow(
      "FW_MCP_ENABLED must be true or false, got 'yes'",
    );
    expect(
      adminConfigFromEnv(
        'dev',
        { FW_SERVICE_REGISTRY_URL: 'http://registry:8080/', FW_SERVICE_BASE_URL: 'http://admin:8080' },
        '/tmp',
      ).serviceRegistry,
    ).toEqual({ url: 'http://registry:8080', baseUrl: 'http://admin:8080' });
    expect(() => adminConfigFromEnv('dev', { FW_SERVICE_REGISTRY_URL: 'registry:8080' }, '/tmp')).toThrow(
      /FW_SERVICE_REGISTRY_URL must be an http/,
    );
    expect(() => adminConfigFromEnv('dev', { FW_INFO_ACCESS_KEY: 'short' }, '/tmp')).toThrow(
      /FW_INFO_ACCESS_KEY is too short \(5 characters\)/,
    );
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
      expect((thrown as Error).message).toMatch(
        /missing table\(s\) fw_process, .*fw_crontab.*npm run migrate -- --database-url/,
      );
      const rows = await getDb().database.withSession((s) =>
        s.query<{ found: string | null }>(`select to_regclass('fw_process')::text as found`),
      );
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
    {
      name: 'missing PROCESS_DATABASE_URL',
      env: { PROCESS_MANAGEMENT_API_KEY: KEY },
      expected: /PROCESS_DATABASE_URL is not set/,
    },
    {
      name: 'short key',
      env: {
        PROCESS_DATABASE_URL: 'postgres://127.0.0.1:1/x',
        PROCESS_DATABASE_USERNAME: 'u',
        PROCESS_DATABASE_PASSWORD: 'p',
        PROCESS_MANAGEMENT_API_KEY: 'too-short-key',
      },
      expected: /PROCESS_MANAGEMENT_API_KEY is too short \(13 characters\).*at least 32 characters/,
    },
    {
      name: 'short key in dev',
      env: { PROCESS_MANAGEMENT_API_KEY: 'too-short-key', FW_PROFILE: 'dev' },
      expected: /PROCESS_MANAGEMENT_API_KEY is too short/,
    },
    {
      name: 'bad port',
      env: { PROCESS_ADMIN_PORT: '70000', FW_PROFILE: 'dev' },
      expected: /PROCESS_ADMIN_PORT must be a port number/,
    },
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
        env: {
          PROCESS_DATABASE_URL: url.toString(),
          PROCESS_DATABASE_USERNAME: user,
          PROCESS_DATABASE_PASSWORD: decodeURIComponent(url.password) || 'unused',
          PROCESS_MANAGEMENT_API_KEY: KEY,
        },
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

/**
 * "Empty is set" (a variable set to '' counts as set) in the real production process: PROCESS_DATABASE_PASSWORD='' with a
 * user and a URL without credentials starts the server against a migrated PostgreSQL database
 * (trust authentication here). Registered only when FW_TEST_DATABASE_URL names a server: the
 * production profile runs on PostgreSQL only.
 */
// Registered only when FW_TEST_DATABASE_URL names a server (like describeEachDatabase).
for (const _target of databaseTargets().filter((t) => t === 'postgres'))
  describe('admin server with an empty PROCESS_DATABASE_PASSWORD (real process) [postgres]', () => {
    let testDb: TestDatabase;
    beforeAll(async () => {
      testDb = await createTestDatabase('postgres');
    }, 60_000);
    afterAll(async () => {
      await testDb.dispose();
    }, 60_000);

    it('starts against the migrated database, answers /health-check and stops on SIGTERM', async () => {
      const url = new URL(testDb.url);
      const user = decodeURIComponent(url.username) || 'postgres';
      url.username = '';
      url.password = '';
      const host = spawnHost([], {
        PROCESS_DATABASE_URL: url.toString(),
        PROCESS_DATABASE_USERNAME: user,
        PROCESS_DATABASE_PASSWORD: '',
        PROCESS_MANAGEMENT_API_KEY: KEY,
        PROCESS_ADMIN_PORT: '0',
      });
      const base = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const found = /listening on (http:\/\/\S+)/.exec(host.stdout());
          if (found) {
            clearInterval(timer);
            resolve(found[1]);
          }
        }, 50);
        void host.exited.then((code) => {
          clearInterval(timer);
          reject(new Error(`exited ${code} before listening: ${host.stderr()}`));
        });
      });
      const res = await fetch(`${base}/health-check`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, payload: { healthy: true } });
      host.child.kill('SIGTERM');
      expect(await host.exited).toBe(0);
    });
  });
