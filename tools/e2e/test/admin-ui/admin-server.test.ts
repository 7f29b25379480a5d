/**
 * The admin UI at /fw/admin of the real dev-profile admin server, in Chromium: the services list,
 * a service's definition, the health probe, the support-ticket workflow's diagram and test cases,
 * API documents, deep links, keyboard use, themes and an axe scan of every view.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../src/browser';
import { startDevAdminServer, type DevAdminServer } from '../../src/hosts';
import { expectAccessible, rowsSettled, serviceRows, shot, uiPage } from './support';

describe('admin UI on the dev admin server', () => {
  let host: DevAdminServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    [host, browser] = await Promise.all([startDevAdminServer(), launchBrowser()]);
    ({ page, errors } = await uiPage(browser));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  afterEach(() => expect(errors).toEqual([]));

  it('prints its URL at startup and lists the services with kind and health', async () => {
    expect(host.stdout()).toContain(`admin-server: admin UI: ${host.url}/fw/admin/`);
    await page.goto(`${host.url}/fw/admin/`);
    await page.getByRole('heading', { name: 'Services' }).waitFor();
    await page.locator('.badge', { hasText: 'healthy' }).waitFor();
    expect(await serviceRows(page)).toEqual([
      'process process 0.1.0 healthy',
      'process-management process 0.1.0 no checker',
      'support-ticket workflow 0.1.0 no checker',
    ]);
    // No registry on this host: no ecosystem view.
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('link', { name: 'Ecosystem' }).count()).toBe(0);
    await shot(page, 'services');
    await expectAccessible(page, 'services');
    await page.getByLabel('Kind').selectOption('workflow');
    expect(await rowsSettled(page, ['support-ticket workflow 0.1.0 no checker'])).toEqual([
      'support-ticket workflow 0.1.0 no checker',
    ]);
    expect(new URL(page.url()).search).toBe('?kind=workflow');
    // The filter is in the URL: a reload keeps it.
    await page.reload();
    await page.locator('table.services tbody tr').first().waitFor();
    expect(await serviceRows(page)).toEqual(['support-ticket workflow 0.1.0 no checker']);
  });

  it('shows a service definition with its operations and schema trees, and survives a reload', async () => {
    await page.goto(`${host.url}/fw/admin/services/support-ticket`);
    await page.getByRole('heading', { level: 1, name: /support-ticket/ }).waitFor();
    const create = page.locator('li.operation', { hasText: 'Creates a support-ticket' });
    await create.locator('summary').first().click();
    await create.getByRole('heading', { name: 'Input' }).waitFor();
    expect(await create.locator('.schema').first().innerText()).toMatch(
      /title string required minLength: 1, maxLength: 200/,
    );
    await shot(page, 'service-definition');
    await expectAccessible(page, 'service definition');
    await create.getByRole('button', { name: 'Raw JSON' }).first().click();
    expect(await create.locator('pre.raw-json').first().innerText()).toContain('"title"');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /support-ticket/ }).waitFor();
    expect(await page.locator('li.operation').count()).toBeGreaterThanOrEqual(8);
  });

  it('runs the health probe: each check when healthy, "no health checker" for a 404', async () => {
    await page.goto(`${host.url}/fw/admin/services/process/health`);
    await page.getByRole('button', { name: 'Run health probe' }).click();
    await page.locator('.health-result .badge', { hasText: 'healthy' }).waitFor();
    expect(await page.locator('table.checks tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^process-database\s+healthy/),
    ]);
    await shot(page, 'health');
    await expectAccessible(page, 'health');
    await page.goto(`${host.url}/fw/admin/services/process-management/health`);
    await page.getByRole('button', { name: 'Run health probe' }).click();
    expect(await page.locator('.health-result').innerText()).toMatch(/no health checker.*HTTP 404/s);
  });

  it('draws the support-ticket workflow with Mermaid, lists allowed actions and marks a test case', async () => {
    await page.goto(`${host.url}/fw/admin/services/support-ticket/workflow`);
    const diagram = page.getByRole('img', { name: 'State diagram of support-ticket' });
    await diagram.locator('svg').waitFor();
    expect(await diagram.getAttribute('data-state')).toBe('ready');
    for (const state of ['OPENED', 'ASSIGNED', 'RESOLVED', 'CLOSED'])
      expect(await diagram.locator('svg').innerHTML()).toContain(state);
    const actions = page.locator('table.actions tbody tr');
    await page.locator('table.actions .chip', { hasText: 'reopen' }).waitFor();
    expect((await actions.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'OPENED manual assign close',
      'ASSIGNED manual resolve deassign',
      'RESOLVED manual close reopen',
      'CLOSED final none',
    ]);
    const testCase = page.getByRole('button', { name: 'assign → resolve → close', exact: true });
    await testCase.click();
    const marked = page.getByRole('img', { name: /with the path assign → resolve → close marked/ });
    await marked.locator('svg .onPath').first().waitFor();
    expect(await marked.locator('svg .onPath').count()).toBe(4);
    await shot(page, 'workflow');
    await expectAccessible(page, 'workflow');
  });

  it('probes the API documents and lists the operations of the one found', async () => {
    await page.goto(`${host.url}/fw/admin/api-docs`);
    await page.getByRole('heading', { name: /Operations in \/openapi\.json/ }).waitFor();
    expect(await page.locator('table.probes tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^\/openapi\.json\s+OpenAPI 3\.1/),
      ...['/v3/api-docs', '/swagger.json', '/api-docs'].map((p) =>
        expect.stringMatching(
          new RegExp(`^${p}\\s+(HTTP 404|HTTP 401|HTTP 200, but not an OpenAPI or Swagger document)$`),
        ),
      ),
    ]);
    expect(
      await page.locator('table.doc-operations tbody tr', { hasText: '/support-ticket/{id}/{eventId}' }).count(),
    ).toBe(1);
    expect(await page.getByRole('link', { name: '/openapi.json' }).getAttribute('href')).toBe(
      `${host.url}/openapi.json`,
    );
    await shot(page, 'api-docs');
    await expectAccessible(page, 'api docs');
  });

  it('works from the keyboard: skip link, navigation, filter and opening a service', async () => {
    await page.goto(`${host.url}/fw/admin/`);
    await page.getByRole('heading', { name: 'Services' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.outerHTML)).toBe(
      '<a class="skip-link" href="#main">Skip to content</a>',
    );
    await page.getByLabel('Filter').focus();
    await page.keyboard.type('ticket');
    expect(await rowsSettled(page, ['support-ticket workflow 0.1.0 no checker'])).toEqual([
      'support-ticket workflow 0.1.0 no checker',
    ]);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('support-ticket');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: /support-ticket/ }).waitFor();
    expect(page.url()).toBe(`${host.url}/fw/admin/services/support-ticket`);
  });

  it('follows the system theme and switches to dark', async () => {
    const dark = await uiPage(browser, 'dark');
    await dark.page.goto(`${host.url}/fw/admin/services/support-ticket/workflow`);
    await dark.page.getByRole('img', { name: 'State diagram of support-ticket' }).locator('svg').waitFor();
    expect(await dark.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await shot(dark.page, 'workflow-dark');
    await expectAccessible(dark.page, 'workflow (dark)');
    await dark.page.context().close();
    expect(dark.errors).toEqual([]);
    await page.goto(`${host.url}/fw/admin/`);
    await page.getByLabel('Theme').selectOption('dark');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await expectAccessible(page, 'services (dark)');
    await page.getByLabel('Theme').selectOption('system');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  });
});
