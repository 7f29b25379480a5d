/**
 * The process dashboard signed in with bearer tokens of each role, in Chromium, against the real
 * dev admin server verifying them against a JWKS file: each role sees exactly the views, tenants
 * and actions it may use; a token for another tenant is refused at sign-in; the admin reads the
 * audit trail, refusals included; axe on every view; the token is in no storage, URL or DOM.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../src/browser';
import { startDevAdminServer, type DevAdminServer } from '../../src/hosts';
import { api, dashboardPage, expectAccessible, nav, shot, type DashboardPage } from './support';
import { makeJwksTokens, type JwksTokens } from './jwks-tokens';

type RoleName = 'viewer' | 'operator' | 'admin';

/** What each role must see: the navigation, and per view the actions. */
const EXPECTED: Record<RoleName, { nav: string[]; cron: string[]; definitions: string[] }> = {
  viewer: { nav: ['Processes', 'Executions', 'Cron', 'Definitions', 'Health'], cron: [], definitions: [] },
  operator: {
    nav: ['Processes', 'Executions', 'Trigger', 'Cron', 'Definitions', 'Health'],
    cron: ['Disable nightly'],
    definitions: [],
  },
  admin: {
    nav: ['Processes', 'Executions', 'Trigger', 'Cron', 'Definitions', 'Health', 'Audit'],
    cron: ['New schedule', 'Disable nightly', 'Delete nightly'],
    definitions: ['New definition', "Reload the server's cache"],
  },
};

describe('process dashboard signed in with tokens of each role', () => {
  let host: DevAdminServer;
  let browser: Browser;
  let jwks: JwksTokens | undefined;
  let sign: (sub: string, roles: string[], tenants: string[]) => Promise<string>;
  const tokens: string[] = [];

  beforeAll(async () => {
    const tokenSource = await makeJwksTokens('jwks');
    jwks = tokenSource;
    sign = async (sub, roles, tenants) => {
      const token = await tokenSource.sign(sub, roles, tenants);
      tokens.push(token);
      return token;
    };
    [host, browser] = await Promise.all([startDevAdminServer(tokenSource.env), launchBrowser()]);
    await api(host, '/crontabs', {
      method: 'POST',
      body: {
        name: 'nightly',
        cronExpression: '0 0 2 * * *',
        timezone: 'UTC',
        enabled: true,
        payload: { processDefName: 'word-count', args: { text: 'night' } },
      },
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    jwks?.dispose();
  });

  /** Signs in on the form of the page shown (`from`: open that path first). */
  async function signInWithToken(
    dash: DashboardPage,
    token: string,
    tenant = 'demo',
    from: string | undefined = '/',
  ): Promise<void> {
    const { page } = dash;
    if (from !== undefined) await page.goto(`${host.url}${from}`);
    await page.getByRole('radio', { name: 'Token', exact: true }).check();
    await page.getByLabel('Bearer token (JWT)').fill(token);
    await page.getByLabel('Tenant', { exact: true }).fill(tenant);
    await page.getByRole('button', { name: 'Open the dashboard' }).click();
  }

  async function navLabels(page: Page): Promise<string[]> {
    return page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();
  }

  /** The action buttons and links a view shows (by accessible name), among those any role might see. */
  async function actions(page: Page, names: readonly string[]): Promise<string[]> {
    const shown: string[] = [];
    for (const name of names) {
      const count = await page
        .getByRole('button', { name, exact: true })
        .or(page.getByRole('link', { name, exact: true }))
        .count();
      if (count > 0) shown.push(name);
    }
    return shown;
  }

  for (const role of ['viewer', 'operator', 'admin'] as const) {
    it(`${role}: sees exactly what the role allows`, async () => {
      const dash = await dashboardPage(browser);
      const { page } = dash;
      try {
        const token = await sign(`${role}-e2e`, [role], ['demo']);
        await signInWithToken(dash, token);
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        expect(await page.getByText(`jwt:${role}-e2e · ${role}`).count()).toBe(1);
        expect(await navLabels(page)).toEqual(EXPECTED[role].nav);
        // The tenant picker lists the token's tenants only.
        expect(await page.getByLabel('Tenant', { exact: true }).locator('option').allInnerTexts()).toEqual(['demo']);
        await expectAccessible(page, `${role}: processes`);

        await nav(page, 'Cron');
        await page.getByRole('link', { name: 'nightly', exact: true }).waitFor();
        expect(await actions(page, EXPECTED.admin.cron)).toEqual(EXPECTED[role].cron);
        await expectAccessible(page, `${role}: cron`);
        if (role === 'operator') await shot(page, 'cron-operator');

        await nav(page, 'Definitions');
        await page.getByRole('link', { name: 'word-count', exact: true }).waitFor();
        expect(await actions(page, EXPECTED.admin.definitions)).toEqual(EXPECTED[role].definitions);
        await expectAccessible(page, `${role}: definitions`);
        if (role === 'viewer') await shot(page, 'definitions-viewer');

        // A deep link to a view the role may not use says so instead of offering it.
        if (role !== 'admin') {
          await signInWithToken(dash, token, 'demo', '/t/demo/audit');
          await page.getByText('The audit trail needs the admin role.').waitFor();
        }
        expect(dash.errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  }

  it('refuses a tenant outside the token at sign-in, and shows the audit trail to the admin with the refusals', async () => {
    // A refused change through the API: an operator of another tenant.
    const stranger = await sign('stranger', ['operator'], ['elsewhere']);
    const refused = await fetch(`${host.url}/process-management/api/triggers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${stranger}`, 'x-fw-tenant-id': 'demo', 'Content-Type': 'application/json' },
      body: JSON.stringify({ payload: { processDefName: 'word-count', args: { text: 'x' } } }),
    });
    expect(refused.status).toBe(403);

    const dash = await dashboardPage(browser);
    const { page } = dash;
    try {
      await signInWithToken(dash, stranger, 'demo');
      await page.getByRole('alert').filter({ hasText: 'may not open tenant “demo”' }).waitFor();
      await shot(page, 'sign-in-token');
      await expectAccessible(page, 'sign-in with a token for another tenant');

      await signInWithToken(dash, await sign('ada', ['admin'], ['*']), 'demo');
      await nav(page, 'Audit');
      const table = page.getByRole('table', { name: 'Audit trail, newest first' });
      await table.waitFor();
      await table.getByText('jwt:stranger').first().waitFor();
      expect(
        await table.locator('tbody tr').filter({ hasText: 'jwt:stranger' }).filter({ hasText: 'refused' }).count(),
      ).toBe(1);
      expect(await table.locator('tbody tr').filter({ hasText: 'addCrontab' }).filter({ hasText: 'ok' }).count()).toBe(
        1,
      );
      await shot(page, 'audit');
      await expectAccessible(page, 'audit');
      await page.getByLabel('Action').selectOption('trigger');
      await table.locator('tbody tr').filter({ hasText: 'addCrontab' }).waitFor({ state: 'detached' });
      expect(await table.locator('tbody tr').count()).toBe(1);

      // Tokens stay in memory: no storage, URL or DOM holds one.
      const leaked = await page.evaluate(
        (all) =>
          all.filter(
            (t) =>
              localStorage.length + sessionStorage.length > 0 ||
              document.documentElement.outerHTML.includes(t) ||
              location.href.includes(t) ||
              document.cookie.includes(t),
          ).length,
        tokens,
      );
      expect(leaked).toBe(0);
      expect(dash.urls.filter((u) => tokens.some((t) => u.includes(t)))).toEqual([]);
      expect(dash.console.filter((m) => tokens.some((t) => m.includes(t)))).toEqual([]);
      expect(dash.errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
