import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/**
 * Startup failures of the real host process: `tsx apps/query-host/src/main.ts --config <file>`.
 * All cases start together (each process takes a second or two to boot), then each is checked.
 */
const ROOT = path.resolve(__dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const MAIN = path.join(ROOT, 'apps/query-host/src/main.ts');

const GOOD_MAPPER = `<mapper namespace="shop"><select id="findBooks" resultType="map">select 1 as id \${orderby} \${pagination}</select></mapper>`;
const GOOD_DEFINITIONS = JSON.stringify([
  { name: 'books', id: 'shop.findBooks', paginated: true, acls: [], columnMetadata: {} },
]);

interface Case {
  name: string;
  config: string | Record<string, unknown>;
  mapper?: string;
  definitions?: string;
  expected: RegExp;
}

const query = (extra: Record<string, unknown> = {}) => ({
  datasources: { t1: { jdbcUrl: 'pglite:memory:' } },
  mapperFiles: 'mappers/*.xml',
  definitionFiles: 'definitions/*.json',
  ...extra,
});

const CASES: Case[] = [
  { name: 'invalid JSON config', config: '{ "server": { "port": 0 ', expected: /query-host\.json is not valid JSON/ },
  {
    name: 'unknown config key',
    config: { server: { port: 0, prot: 1 }, query: query() },
    expected: /query-host\.json: server\.prot is not a known setting/,
  },
  {
    name: 'invalid mapper XML',
    config: { server: { port: 0 }, query: query() },
    mapper: '<mapper namespace="shop"><select id="findBooks">select 1</mapper>',
    expected: /mappers[/\\]shop\.xml: invalid mapper XML/,
  },
  {
    name: '${foo} in a mapper',
    config: { server: { port: 0 }, query: query() },
    mapper:
      '<mapper namespace="shop"><select id="findBooks" resultType="map">select * from t where a = ${foo}</select></mapper>',
    expected:
      /mappers[/\\]shop\.xml: select 'findBooks' uses \$\{foo\}; only \$\{orderby\} and \$\{pagination\} are allowed/,
  },
  {
    name: 'unresolved statement id',
    config: { server: { port: 0 }, query: query() },
    definitions: JSON.stringify([
      { name: 'books', id: 'shop.noSuchStatement', paginated: true, acls: [], columnMetadata: {} },
    ]),
    expected: /references statement 'shop\.noSuchStatement', which is not defined/,
  },
  {
    name: 'unknown provider',
    config: { server: { port: 0 }, query: query({ provider: 'elastic' }) },
    expected: /query\.provider 'elastic' is not a registered QueryExecutionProvider/,
  },
  {
    name: 'catalog on an unreachable database',
    config: {
      server: { port: 0 },
      query: query({ catalog: { jdbc: { enabled: true, dataSource: 'catalog' } } }),
      dataSources: { catalog: { jdbcUrl: 'postgres://postgres@127.0.0.1:1/x', connectionTimeout: 2000 } },
    },
    expected:
      /query\.catalog\.jdbc\.dataSource 'catalog' \(postgres:\/\/postgres@127\.0\.0\.1:1\/x\) is unavailable: connect ECONNREFUSED/,
  },
  {
    name: 'unknown canned report store',
    config: { server: { port: 0 }, query: query({ cannedReports: { store: 'redis' } }) },
    expected: /query-host\.json: query\.cannedReports\.store must be one of "memory", "database"$/,
  },
  {
    name: 'canned report table missing',
    config: {
      server: { port: 0 },
      query: query({ cannedReports: { store: 'database', dataSource: 'reports' } }),
      dataSources: { reports: { jdbcUrl: 'pglite:memory:' } },
    },
    expected:
      /query\.cannedReports\.dataSource 'reports': Database pglite:memory: is missing table\(s\) fw_query_canned_report: apply the schema with `npx fw-migrate --database-url <url>` \(package @fw\/migrate; `npm run migrate -- --database-url <url>` in the fw checkout\)$/,
  },
];

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runHost(configFile: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, MAIN, '--config', configFile], {
      cwd: ROOT,
      env: { ...process.env, FW_LOG_LEVEL: 'silent' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('query host startup failures (real process)', () => {
  let dir: string;
  const outcomes = new Map<string, Outcome>();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fw-query-host-fail-'));
    await Promise.all(
      CASES.map(async (c, i) => {
        const caseDir = path.join(dir, `case-${i}`);
        mkdirSync(path.join(caseDir, 'mappers'), { recursive: true });
        mkdirSync(path.join(caseDir, 'definitions'));
        writeFileSync(path.join(caseDir, 'mappers/shop.xml'), c.mapper ?? GOOD_MAPPER);
        writeFileSync(path.join(caseDir, 'definitions/shop.json'), c.definitions ?? GOOD_DEFINITIONS);
        const file = path.join(caseDir, 'query-host.json');
        writeFileSync(file, typeof c.config === 'string' ? c.config : JSON.stringify(c.config));
        outcomes.set(c.name, await runHost(file));
      }),
    );
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(CASES.map((c) => [c.name, c] as const))('%s: exits 1 before listening with one clear line', (_name, c) => {
    const outcome = outcomes.get(c.name);
    expect(outcome).toBeDefined();
    const { code, stdout, stderr } = outcome as Outcome;
    expect(code).toBe(1);
    expect(stdout).not.toContain('listening');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^query-host: cannot start: /);
    expect(lines[0]).toMatch(c.expected);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
