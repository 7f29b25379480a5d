import { configFromObject, isConfigError, loadConfigFile } from '@fw/core';
import { makeServiceRegistry, makeServiceRegistryService, makeServiceRouter, onListening } from '@fw/service';
import { describeEachDatabase } from '@fw/test-support';
import express from 'express';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createQueryHost, DEMO_DIR, parseHostArgs, parseHostConfig, SERVER_DEFAULTS, UsageError } from '../src';
import { seedTenant, tenantFactory } from './support/host-fixture';

const minimalQuery = { datasources: { t1: { jdbcUrl: 'pglite:memory:' } }, definitionFiles: 'definitions/*.json' };

describe('parseHostConfig', () => {
  it('defaults the server section to 127.0.0.1:8081', () => {
    expect(parseHostConfig(configFromObject({ query: minimalQuery }, '/base')).server).toEqual({
      port: 8081,
      bindAddress: '127.0.0.1',
    });
    expect(SERVER_DEFAULTS).toEqual({ port: 8081, bindAddress: '127.0.0.1' });
  });

  it('accepts a port written as a string (from ${PORT}) and keeps baseDir', () => {
    const config = parseHostConfig(
      configFromObject({ server: { port: '${PORT:-9090}', bindAddress: '0.0.0.0' }, query: minimalQuery }, '/base', {
        env: {},
      }),
    );
    expect(config.server).toEqual({ port: 9090, bindAddress: '0.0.0.0' });
    expect(config.baseDir).toBe('/base');
  });

  it.each([
    [
      { server: { port: 8081, host: 'x' }, query: minimalQuery },
      /server\.host is not a known setting \(known: port, bindAddress\)/,
    ],
    [{ server: { port: 70000 }, query: minimalQuery }, /server\.port must be an integer from 0 to 65535 \(got 70000\)/],
    [{ server: { port: 'eighty' }, query: minimalQuery }, /server\.port must be an integer/],
    [{ server: { bindAddress: '' }, query: minimalQuery }, /server\.bindAddress must be a non-empty string/],
    [{ server: 8081, query: minimalQuery }, /server must be an object/],
    [{ query: minimalQuery, sever: {} }, /unknown top-level key 'sever' \(known: server, query, dataSources\)/],
    [{ server: {} }, /query/],
    [
      { query: { ...minimalQuery, datasources: { t1: { jdbcUrl: 'pglite:memory:', maxPoolSize: 3 } } } },
      /query\.datasources\.t1/,
    ],
    [[1, 2], /must be a JSON object/],
  ])('refuses %j', (data, message) => {
    let caught: unknown;
    try {
      parseHostConfig(configFromObject(data, '/base'));
    } catch (err) {
      caught = err;
    }
    expect(isConfigError(caught)).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });
});

describe('parseHostArgs', () => {
  it('reads --config in both spellings, else FW_CONFIG, else the demo', () => {
    expect(parseHostArgs(['--config', 'a.json'], {})).toEqual({ kind: 'run', configFile: 'a.json' });
    expect(parseHostArgs(['--config=b.json'], { FW_CONFIG: 'x.json' })).toEqual({ kind: 'run', configFile: 'b.json' });
    expect(parseHostArgs([], { FW_CONFIG: 'x.json' })).toEqual({ kind: 'run', configFile: 'x.json' });
    expect(parseHostArgs([], {})).toEqual({ kind: 'run', configFile: undefined });
    expect(parseHostArgs(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseHostArgs(['--version'], {})).toEqual({ kind: 'version' });
  });

  it('refuses unknown arguments and a missing file', () => {
    expect(() => parseHostArgs(['--port', '1'], {})).toThrow(UsageError);
    expect(() => parseHostArgs(['--config'], {})).toThrow('--config needs a file');
  });
});

describeEachDatabase(
  'query host from a config FILE',
  (getDb) => {
    let dir: string;
    beforeAll(async () => {
      await seedTenant(getDb().database, 'demo');
      dir = mkdtempSync(path.join(tmpdir(), 'fw-query-host-'));
      mkdirSync(path.join(dir, 'mappers'));
      mkdirSync(path.join(dir, 'definitions'));
      copyFileSync(path.join(DEMO_DIR, 'mappers/library.xml'), path.join(dir, 'mappers/library.xml'));
      copyFileSync(path.join(DEMO_DIR, 'definitions/library.json'), path.join(dir, 'definitions/library.json'));
      const db = getDb();
      const jdbcUrl = db.target === 'postgres' ? db.url.replace(/^postgres:/, 'jdbc:postgresql:') : 'pglite:memory:';
      writeFileSync(
        path.join(dir, 'query-host.json'),
        JSON.stringify({
          server: { port: 0, bindAddress: '127.0.0.1' },
          query: {
            defaultTenantId: 't1',
            datasources: {
              t1: { jdbcUrl, username: 'postgres', password: '${FW_QH_TEST_PASSWORD}', maximumPoolSize: 2 },
            },
            mapperFiles: 'mappers/*.xml',
            definitionFiles: 'definitions/*.json',
            pagination: { countQueryEnabled: false },
          },
        }),
      );
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('interpolates the password, resolves relative paths against the file and serves over real HTTP', async () => {
      const loaded = loadConfigFile(path.join(dir, 'query-host.json'), { env: { FW_QH_TEST_PASSWORD: 's3cret' } });
      const config = parseHostConfig(loaded);
      expect(config.query.datasources.t1.password).toBe('s3cret');
      expect(config.baseDir).toBe(dir);

      const host = await createQueryHost({
        config: loaded,
        databaseFactory: tenantFactory(getDb().target, { t1: getDb() }),
      });
      try {
        const { url, port } = await host.listen();
        expect(port).toBeGreaterThan(0);
        const res = await fetch(`${url}/q/books`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            filters: { author: 'lem' },
            sortCriteria: [{ name: 'year', ascendingOrder: true }],
            numRowsInPage: 3,
          }),
        });
        expect(res.status).toBe(200);
        const body = (await res.json()) as {
          payload: { list: Array<{ row: { title: string } }>; pagination: unknown; maxRows: unknown };
        };
        expect(body.payload.list.map((r) => r.row.title)).toEqual(['The Star Diaries', 'Solaris', 'The Cyberiad']);
        // countQueryEnabled: false → one extra row fetched, no count.
        expect(body.payload.pagination).toEqual({
          nextPageAvailable: true,
          countQueryExecuted: false,
          totalCountAvailable: false,
          countMode: 'none',
        });
        expect(body.payload.maxRows).toBeNull();
      } finally {
        await host.close();
      }
      expect(host.server()?.listening).toBe(false);
    });

    it('fails with the file and key when the password variable is not set', () => {
      expect(() => loadConfigFile(path.join(dir, 'query-host.json'), { env: {} })).toThrow(
        /query-host\.json: query\.datasources\.t1\.password uses \$\{FW_QH_TEST_PASSWORD\}/,
      );
    });

    it('names the port when it is already in use', async () => {
      const loaded = loadConfigFile(path.join(dir, 'query-host.json'), { env: { FW_QH_TEST_PASSWORD: 'x' } });
      const first = await createQueryHost({
        config: loaded,
        databaseFactory: tenantFactory(getDb().target, { t1: getDb() }),
      });
      try {
        const { port } = await first.listen();
        const busy = configFromObject({ ...(loaded.data as object), server: { port } }, dir);
        const second = await createQueryHost({
          config: busy,
          databaseFactory: tenantFactory(getDb().target, { t1: getDb() }),
        });
        try {
          await expect(second.listen()).rejects.toThrow(
            new RegExp(`server.bindAddress 127.0.0.1 port ${port} is already in use`),
          );
        } finally {
          await second.close();
        }
      } finally {
        await first.close();
      }
    });

    it('registers the query service with a service registry at the URL it listens on', async () => {
      const registry = makeServiceRegistry({
        host: { name: 'registry', version: '1' },
        services: [makeServiceRegistryService()],
      });
      const registryServer = createServer(express().use(makeServiceRouter(registry))).listen(0, '127.0.0.1');
      await once(registryServer, 'listening');
      const registryUrl = onListening(registryServer, { registry }).url;
      const host = await createQueryHost({
        config: loadConfigFile(path.join(dir, 'query-host.json'), { env: { FW_QH_TEST_PASSWORD: 'x' } }),
        databaseFactory: tenantFactory(getDb().target, { t1: getDb() }),
        serviceRegistry: { url: registryUrl },
      });
      try {
        const { url } = await host.listen();
        const until = Date.now() + 10_000;
        let catalog: Array<{ baseUrl: string; services: Array<{ name: string }> }> = [];
        while (catalog.length === 0 && Date.now() < until) {
          await new Promise((r) => setTimeout(r, 50));
          catalog = ((await (await fetch(`${registryUrl}/serviceregistry`)).json()) as { payload: typeof catalog })
            .payload;
        }
        expect(catalog.map((e) => [e.baseUrl, e.services.map((s) => s.name)])).toEqual([[url, ['query']]]);
      } finally {
        await host.close();
        registryServer.closeAllConnections();
        await new Promise((resolve) => registryServer.close(resolve));
      }
    });
  },
  { migrate: false },
);
