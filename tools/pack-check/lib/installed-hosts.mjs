// The hosts as an operator runs them from an install: fw-migrate on a fresh PostgreSQL database,
// fw-admin-server (production env, empty password), fw-query-host (a config with a mapper and a
// definition), and fw-admin-server --profile dev on PGlite with the example run to PROCESSED.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { eventually, request, run, start } from './processes.mjs';

const KEY = 'pack-check-admin-key-0123456789abcdef';
const API = '/process-management/api';

function bin(app, name) {
  return path.join(app, 'node_modules', '.bin', name);
}

/** --help and --version answer 0, an unknown flag 2 with a usage line, for every bin. */
export function checkBinFlags(app, bins) {
  for (const [name, version] of bins) {
    const help = run(bin(app, name), ['--help'], { cwd: app });
    assert.equal(help.status, 0, `${name} --help: exit ${help.status} ${help.stderr}`);
    assert.match(help.stdout, new RegExp(`usage: ${name}`), `${name} --help prints its usage`);
    const shown = run(bin(app, name), ['--version'], { cwd: app });
    assert.equal(shown.status, 0, `${name} --version: exit ${shown.status}`);
    assert.equal(shown.stdout.trim(), `${name} ${version}`);
    const bad = run(bin(app, name), ['--no-such-flag'], { cwd: app });
    assert.equal(bad.status, 2, `${name} --no-such-flag: exit ${bad.status}`);
    assert.match(bad.stderr, /unknown argument '--no-such-flag'/);
    assert.match(bad.stderr, /usage: /);
    console.log(`  ${name}: --help, --version (${version}), unknown flag → 2`);
  }
}

/** fw-migrate twice on a fresh database: everything applied, then nothing, each run exiting at once. */
export function checkMigrate(app, databaseUrl, expectedCount) {
  const first = run(bin(app, 'fw-migrate'), ['--database-url', databaseUrl], { cwd: app });
  assert.equal(first.status, 0, `fw-migrate: ${first.stderr}`);
  assert.match(first.stdout, new RegExp(`: ${expectedCount} applied, 0 already applied`));
  const started = Date.now();
  const again = run(bin(app, 'fw-migrate'), ['--database-url', databaseUrl], { cwd: app, timeout: 20_000 });
  const millis = Date.now() - started;
  assert.equal(again.status, 0, `fw-migrate (again): ${again.stderr}`);
  assert.match(again.stdout, new RegExp(`: 0 applied, ${expectedCount} already applied`));
  assert.ok(millis < 3_000, `fw-migrate on an up-to-date database took ${millis} ms (must exit at once)`);
  console.log(`  fw-migrate: ${expectedCount} applied, then 0 applied in ${millis} ms`);
}

/** fw-admin-server in production on the migrated database, with PROCESS_DATABASE_PASSWORD=''. */
export async function checkAdminProduction(app, { host, port, database, user }, baseEnv) {
  const env = {
    ...baseEnv,
    PROCESS_DATABASE_URL: `postgres://${host}:${port}/${database}`,
    PROCESS_DATABASE_USERNAME: user,
    PROCESS_DATABASE_PASSWORD: '',
    PROCESS_MANAGEMENT_API_KEY: KEY,
    PROCESS_ADMIN_PORT: '0',
  };
  const server = start(bin(app, 'fw-admin-server'), [], { cwd: app, env });
  try {
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/);
    const health = await request(`${url}/health-check`);
    assert.equal(health.status, 200, JSON.stringify(health.body));
    const info = await request(`${url}${API}/info`, {
      headers: { 'X-Process-Management-Key': KEY, 'x-fw-tenant-id': 'pack' },
    });
    assert.equal(info.status, 200, JSON.stringify(info.body));
    assert.equal(info.body.definitionSource, 'database');
    const refused = await request(`${url}${API}/info`, { headers: { 'x-fw-tenant-id': 'pack' } });
    assert.equal(refused.status, 401);
    console.log(`  fw-admin-server (production, empty password): /health-check 200, ${API}/info 200, without key 401`);
  } finally {
    assert.equal(await server.stop(), 0, `fw-admin-server exit code; stderr: ${server.stderr()}`);
  }
}

/** fw-query-host with a config file, a mapper and a definition over a table of the database. */
export async function checkQueryHost(app, { host, port, database, user }, baseEnv) {
  const dir = path.join(app, 'query-config');
  mkdirSync(path.join(dir, 'mappers'), { recursive: true });
  mkdirSync(path.join(dir, 'definitions'), { recursive: true });
  writeFileSync(
    path.join(dir, 'mappers', 'shop.xml'),
    `<mapper namespace="shop">
  <select id="findBooks" resultType="map">
    select id, title from pack_book
    <where><if test="title != null">and title ilike #{title}</if></where>
    \${orderby} \${pagination}
  </select>
</mapper>
`,
  );
  writeFileSync(
    path.join(dir, 'definitions', 'shop.json'),
    JSON.stringify(
      [
        {
          name: 'books',
          id: 'shop.findBooks',
          paginated: true,
          acls: [],
          columnMetadata: {
            title: { name: 'title', columnType: 'Text', filterable: true, likeQuery: true, sortable: true },
            id: { name: 'id', columnType: 'Number', sortable: true },
          },
        },
      ],
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(dir, 'query-host.json'),
    JSON.stringify(
      {
        server: { port: 0 },
        query: {
          datasources: {
            shop: {
              jdbcUrl: `jdbc:postgresql://${host}:${port}/${database}`,
              username: user,
              password: '${DB_PASSWORD}',
            },
          },
          mapperFiles: 'mappers/*.xml',
          definitionFiles: 'definitions/*.json',
        },
      },
      null,
      2,
    ),
  );
  const server = start(bin(app, 'fw-query-host'), ['--config', path.join(dir, 'query-host.json')], {
    cwd: app,
    env: { ...baseEnv, DB_PASSWORD: '' },
  });
  try {
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/);
    const res = await request(`${url}/q/books`, {
      method: 'POST',
      headers: { 'x-fw-tenant-id': 'shop' },
      body: { filters: { title: 'dune' }, sortCriteria: [{ name: 'id', ascendingOrder: true }] },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.payload.list.map((r) => r.row),
      [
        { id: 1, title: 'Dune' },
        { id: 2, title: 'Dune Messiah' },
      ],
    );
    const info = await request(`${url}/info`);
    assert.deepEqual(
      info.body.payload.services.map((s) => `${s.name}:${s.kind}`),
      ['query:query'],
    );
    const doc = await request(`${url}/openapi.json`);
    assert.equal(doc.body.paths['/q/books'].post.operationId, 'query.books');
    console.log(
      '  fw-query-host (config, mapper, definition): POST /q/books → 2 rows; /info lists the query service, /openapi.json documents /q/books',
    );
  } finally {
    assert.equal(await server.stop(), 0, `fw-query-host exit code; stderr: ${server.stderr()}`);
  }
}

/** fw-admin-server --profile dev in an empty folder: ./.data created, the example runs to PROCESSED. */
export async function checkAdminDev(app, baseEnv) {
  const cwd = path.join(app, 'dev-run');
  mkdirSync(cwd, { recursive: true });
  const server = start(bin(app, 'fw-admin-server'), ['--profile', 'dev'], {
    cwd,
    env: { ...baseEnv, PROCESS_ADMIN_PORT: '0' },
  });
  try {
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/, 60_000);
    const [, key] = await server.waitFor(/API key[^:]*: ([0-9a-f]{64})/);
    assert.ok(existsSync(path.join(cwd, '.data', 'admin-api-key')), 'the dev profile keeps its key under ./.data');
    const auth = { 'X-Process-Management-Key': key, 'x-fw-tenant-id': 'demo' };
    const triggered = await request(`${url}${API}/triggers`, {
      method: 'POST',
      headers: auth,
      body: {
        triggerId: 'pack-check',
        payload: { processDefName: 'word-count', args: { text: 'alpha beta alpha gamma alpha beta' } },
      },
    });
    assert.equal(triggered.status, 200, JSON.stringify(triggered.body));
    const statuses = await eventually(
      async () => {
        const page = await request(
          `${url}${API}/processes?triggerId=${encodeURIComponent('manual:demo:pack-check')}&size=100`,
          { headers: auth },
        );
        const roots = page.body.content.filter((p) => p.processType === 'word-count');
        return roots.length === 1 && roots[0].status === 'PROCESSED'
          ? page.body.content.map((p) => `${p.processType}:${p.status}`)
          : undefined;
      },
      60_000,
      'the word-count example to reach PROCESSED',
    );
    console.log(`  fw-admin-server --profile dev (PGlite under ./.data): example ${statuses.join(', ')}`);
    const info = await request(`${url}/info`);
    assert.deepEqual(
      info.body.payload.services.map((s) => `${s.name}:${s.kind}`),
      ['process:process', 'process-management:process', 'support-ticket:workflow'],
    );
    const ticket = await request(`${url}/support-ticket`, {
      method: 'POST',
      headers: auth,
      body: { title: 'from the pack check' },
    });
    assert.equal(ticket.status, 200, JSON.stringify(ticket.body));
    const id = ticket.body.payload.mutatedEntity.id;
    assert.equal(
      (await request(`${url}/support-ticket/${id}/resolve`, { method: 'PATCH', headers: auth, body: {} })).status,
      422,
    );
    assert.equal(
      (await request(`${url}/support-ticket/${id}/assign`, { method: 'PATCH', headers: auth, body: {} })).body.payload
        .mutatedEntity.state.stateId,
      'ASSIGNED',
    );
    console.log(
      '  fw-admin-server --profile dev: /info lists process, process-management, support-ticket (workflow); a ticket is created, refused resolve on OPENED (422), assigned',
    );
  } finally {
    assert.equal(await server.stop(), 0, `fw-admin-server --profile dev exit code; stderr: ${server.stderr()}`);
  }
}
