import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createTestDatabase, databaseTargets, type DatabaseTarget, type TestDatabase } from '@fw/test-support';

/**
 * "Empty is set" (a variable set to '' counts as set) in the real host process: a config that says
 * `"password": "${DB_PASSWORD}"` starts with DB_PASSWORD='' (trust, peer or .pgpass
 * authentication) and refuses an unset DB_PASSWORD with "is not set".
 */
const ROOT = path.resolve(__dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const MAIN = path.join(ROOT, 'apps/query-host/src/main.ts');
const MAPPER = `<mapper namespace="shop"><select id="findOne" resultType="map">select 1 as id \${orderby} \${pagination}</select></mapper>`;
const DEFINITIONS = JSON.stringify([
  { name: 'one', id: 'shop.findOne', paginated: true, acls: [], columnMetadata: {} },
]);

interface Running {
  exited: Promise<number | null>;
  url: Promise<string>;
  stderr(): string;
  stop(): void;
}

function runHost(configFile: string, env: Record<string, string>): Running {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', FW_LOG_LEVEL: 'silent' };
  const child = spawn(process.execPath, [TSX, MAIN, '--config', configFile], { cwd: ROOT, env: { ...base, ...env } });
  let stdout = '';
  let stderr = '';
  const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const found = /listening on (http:\/\/\S+)/.exec(stdout);
      if (found) resolve(found[1]);
    });
    child.on('close', () => reject(new Error(`host exited before listening: ${stderr}`)));
  });
  url.catch(() => undefined);
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    }),
  );
  return { exited, url, stderr: () => stderr, stop: () => void child.kill('SIGTERM') };
}

describe.each(databaseTargets())(
  'query host with an empty ${DB_PASSWORD} (real process) [%s]',
  (target: DatabaseTarget) => {
    let dir: string;
    let testDb: TestDatabase | undefined;
    let configFile: string;

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'fw-query-host-empty-'));
      mkdirSync(path.join(dir, 'mappers'));
      mkdirSync(path.join(dir, 'definitions'));
      writeFileSync(path.join(dir, 'mappers/shop.xml'), MAPPER);
      writeFileSync(path.join(dir, 'definitions/shop.json'), DEFINITIONS);
      let jdbcUrl = 'pglite:memory:';
      let username = 'nobody';
      if (target === 'postgres') {
        testDb = await createTestDatabase('postgres', { migrate: false });
        const url = new URL(testDb.url);
        username = decodeURIComponent(url.username) || 'postgres';
        url.username = '';
        url.password = '';
        jdbcUrl = url.toString().replace(/^postgres:/, 'jdbc:postgresql:');
      }
      configFile = path.join(dir, 'query-host.json');
      writeFileSync(
        configFile,
        JSON.stringify({
          server: { port: 0 },
          query: {
            defaultTenantId: 't1',
            datasources: { t1: { jdbcUrl, username, password: '${DB_PASSWORD}' } },
            mapperFiles: 'mappers/*.xml',
            definitionFiles: 'definitions/*.json',
          },
        }),
      );
    }, 60_000);
    afterAll(async () => {
      rmSync(dir, { recursive: true, force: true });
      await testDb?.dispose();
    }, 60_000);

    it('starts with DB_PASSWORD set to the empty string and answers a query', async () => {
      const host = runHost(configFile, { DB_PASSWORD: '' });
      try {
        const url = await host.url;
        const res = await fetch(`${url}/q/one`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(res.status).toBe(200);
        expect(
          ((await res.json()) as { payload: { list: Array<{ row: unknown }> } }).payload.list.map((r) => r.row),
        ).toEqual([{ id: 1 }]);
      } finally {
        host.stop();
      }
      expect(await host.exited).toBe(0);
    });

    it('refuses an unset DB_PASSWORD, saying it is not set', async () => {
      const host = runHost(configFile, {});
      expect(await host.exited).toBe(1);
      expect(host.stderr().trim()).toMatch(
        /^query-host: cannot start: .*query\.datasources\.t1\.password uses \$\{DB_PASSWORD\}, but environment variable DB_PASSWORD is not set/,
      );
    });
  },
);
