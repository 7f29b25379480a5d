/**
 * The admin UI needs no host-specific setup: a bare express app with @fw/service's router and
 * makeAdminUiRouter() and nothing else. Here with 200 services (a failing health check among
 * them), the service registry (ecosystem catalog), and a second host on another origin read
 * through the proxy — which refuses origins it does not list.
 */
import { createLogger } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler } from '@fw/core/http';
import { makeAdminUiRouter } from '@fw/admin-ui';
import {
  defineService,
  makeServiceRegistry,
  makeServiceRegistryService,
  makeServiceRouter,
  type ServiceDefinition,
  type ServiceKind,
} from '@fw/service';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../src/browser';
import { expectAccessible, rowsSettled, serviceRows, shot, uiPage } from './support';

const KINDS: ServiceKind[] = ['http', 'headless', 'workflow', 'query', 'process'];
const logger = createLogger({ name: 'bare-host', level: 'silent' });

async function serve(
  services: ServiceDefinition[],
  name: string,
  proxyAllowedOrigins: string[] = [],
): Promise<{ server: Server; url: string }> {
  const registry = makeServiceRegistry({
    host: { name, version: '1.0.0', description: `bare host ${name}` },
    services,
    logger,
  });
  const app = express();
  app.use(makeServiceRouter(registry, { logger }));
  app.use(makeAdminUiRouter({ proxyAllowedOrigins }));
  app.use(makeNotFoundHandler(), makeErrorMiddleware(logger));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function manyServices(): ServiceDefinition[] {
  return Array.from({ length: 200 }, (_, i) =>
    defineService({
      name: `svc-${String(i).padStart(3, '0')}`,
      version: `1.${i}.0`,
      kind: KINDS[i % KINDS.length],
      description: i === 7 ? 'ledger with a broken database' : `service number ${i}`,
      operations: [],
      ...(i === 7
        ? {
            healthCheck: async () => ({
              healthy: false,
              checks: [{ name: 'ledger-db', healthy: false, message: 'connection refused' }],
            }),
          }
        : {}),
    }),
  );
}

describe('admin UI in a bare express app', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let big: { server: Server; url: string };
  let remote: { server: Server; url: string };
  let registryHost: { server: Server; url: string };

  beforeAll(async () => {
    remote = await serve(
      [
        defineService({
          name: 'billing',
          version: '4.2.0',
          description: 'Invoices on the other origin',
          operations: [{ name: 'list', method: 'GET', path: '/invoices', handler: async () => [] }],
        }),
      ],
      'remote',
    );
    big = await serve(manyServices(), 'big', [remote.url]);
    const catalog = makeServiceRegistryService();
    registryHost = await serve([catalog], 'registry');
    // Two hosts register, as their delegates would.
    for (const entry of [
      {
        baseUrl: big.url,
        host: { name: 'big', version: '1.0.0' },
        services: [{ name: 'svc-000', version: '1.0.0', kind: 'http', description: 'first', healthCheck: false }],
      },
      {
        baseUrl: remote.url,
        host: { name: 'remote', version: '1.0.0' },
        services: [{ name: 'billing', version: '4.2.0', kind: 'http', description: 'Invoices', healthCheck: false }],
      },
    ]) {
      const res = await fetch(`${registryHost.url}/serviceregistry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(entry),
      });
      expect(res.status).toBe(200);
    }
    browser = await launchBrowser();
    ({ page, errors } = await uiPage(browser));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const h of [big, remote, registryHost])
      if (h) await new Promise<void>((resolve) => h.server.close(() => resolve()));
  });

  afterEach(() => expect(errors).toEqual([]));

  it('lists 200 services quickly, readable and filterable', async () => {
    const started = Date.now();
    await page.goto(`${big.url}/fw/admin/`);
    await page.locator('table.services tbody tr').nth(199).waitFor();
    const shownAfter = Date.now() - started;
    expect(shownAfter).toBeLessThan(5000);
    expect((await serviceRows(page)).length).toBe(200);
    expect(await page.getByText('200 of 200 shown').count()).toBe(1);
    // The header stays in view while the list scrolls.
    await page.mouse.wheel(0, 3000);
    expect(await page.locator('thead th').first().boundingBox()).toMatchObject({ y: expect.any(Number) });
    expect((await page.locator('thead th').first().boundingBox())?.y ?? -1).toBeGreaterThan(0);
    await page.mouse.wheel(0, -6000);
    await page.getByLabel('Kind').selectOption('query');
    await page.locator('table.services tbody tr').nth(40).waitFor({ state: 'detached' });
    expect((await serviceRows(page)).length).toBe(40);
    await page.getByLabel('Filter').fill('ledger');
    await page.getByText('No service matches.').waitFor();
    await page.getByLabel('Kind').selectOption('');
    expect(await rowsSettled(page, ['svc-007 workflow 1.7.0 unhealthy'])).toEqual(['svc-007 workflow 1.7.0 unhealthy']);
    await page.getByLabel('Filter').fill('');
    await page.locator('table.services tbody tr').nth(199).waitFor();
    await shot(page, 'services-200');
    await expectAccessible(page, '200 services');
  });

  it('shows a failing health check with the 503 details', async () => {
    await page.goto(`${big.url}/fw/admin/services/svc-007/health`);
    await page.getByRole('button', { name: 'Run health probe' }).click();
    await page.locator('.health-result .badge', { hasText: 'unhealthy' }).waitFor();
    expect(await page.locator('.health-result p').first().innerText()).toMatch(
      /unhealthy Unhealthy: ledger-db \(HTTP 503/,
    );
    expect(await page.locator('table.checks tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^ledger-db\s+failing/),
    ]);
    await shot(page, 'health-503');
    await expectAccessible(page, 'health 503');
  });

  it('shows the ecosystem catalog when the host runs the service registry', async () => {
    await page.goto(`${registryHost.url}/fw/admin/`);
    await page.getByRole('link', { name: 'Ecosystem' }).click();
    await page.getByRole('heading', { name: 'Ecosystem' }).waitFor();
    expect(await page.getByText('2 hosts registered, 2 services in all.').count()).toBe(1);
    expect(await page.getByRole('article', { name: 'Host remote' }).locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^billing\s+http\s+4\.2\.0\s+no\s+Invoices$/),
    ]);
    await shot(page, 'ecosystem');
    await expectAccessible(page, 'ecosystem');
  });

  it('reads another origin through the proxy when the host lists it, and says so when it does not', async () => {
    await page.goto(`${big.url}/fw/admin/`);
    await page.getByLabel('Base URL').fill(remote.url);
    await page.getByRole('button', { name: 'Read' }).click();
    expect(await rowsSettled(page, ['billing http 4.2.0 no checker'])).toEqual(['billing http 4.2.0 no checker']);
    expect(await page.getByText('remote 1.0.0 — bare host remote').count()).toBe(1);
    await page.getByRole('link', { name: 'billing' }).click();
    expect(await page.locator('li.operation').innerText()).toContain('/invoices');
    // The registry host does not list the big host's origin: refused, clearly.
    await page.goto(`${registryHost.url}/fw/admin/`);
    await page.getByLabel('Base URL').fill(big.url);
    await page.getByRole('button', { name: 'Read' }).click();
    expect(await page.getByRole('alert').first().innerText()).toBe(
      `Could not read the services (/info): This host does not proxy ${big.url}: list it in the admin UI's proxyAllowedOrigins (HTTP 403)`,
    );
  });
});
