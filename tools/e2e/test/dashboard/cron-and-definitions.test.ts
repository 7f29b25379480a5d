/**
 * Cron and definitions in the process dashboard of the real dev admin server, in Chromium with a
 * dark system theme (the dashboard follows it): a schedule explained in words with its next five
 * firing times before saving, created, firing while the page is open and shown in executions
 * within one refresh, disabled, a duplicate name refused beside the field; definitions listed,
 * created, a predecessor cycle refused as the API words it; the theme switch; axe on every view.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../src/browser';
import { startDevAdminServer, type DevAdminServer } from '../../src/hosts';
import { api, dashboardPage, expectAccessible, nav, shot, signIn, type DashboardPage } from './support';

interface Crontab {
  id: string;
  name: string;
  enabled: boolean;
}

describe('process dashboard: cron and definitions', () => {
  let host: DevAdminServer;
  let browser: Browser;
  let dash: DashboardPage;
  let page: Page;

  beforeAll(async () => {
    [host, browser] = await Promise.all([startDevAdminServer(), launchBrowser()]);
    dash = await dashboardPage(browser, 'dark');
    page = dash.page;
    await page.goto(`${host.url}/t/demo/cron`);
    await signIn(page, host.key);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  afterEach(() => expect(dash.errors).toEqual([]));

  it('follows the dark system theme', async () => {
    await page.getByRole('heading', { name: 'Cron schedules' }).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(17, 20, 24)');
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBeNull();
  });

  it('explains a schedule before saving it, then creates it', async () => {
    await page.getByRole('link', { name: 'New schedule' }).click();
    await page.getByLabel('Name').fill('every-2s');
    await page.getByLabel('Cron expression (six fields, seconds first)').fill('*/2 * * *');
    await page.getByText('Six fields are needed, seconds first').waitFor();
    await page.getByLabel('Cron expression (six fields, seconds first)').fill('*/2 * * * * *');
    await page.getByLabel('Time zone (IANA)').fill('Europe/Berlin');
    await page.getByText('Every 2 seconds').waitFor();
    expect(await page.locator('ol.next-runs li').count()).toBe(5);
    expect(await page.locator('ol.next-runs li').first().innerText()).toMatch(/CES?T|GMT\+[12]/);
    await page.getByLabel('Definition to start').selectOption('word-count');
    await page.getByLabel('Args (JSON object)').fill('{"text": "tick tock tick"}');
    await shot(page, 'cron-edit');
    await expectAccessible(page, 'cron editor');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByRole('table', { name: 'Cron schedules' }).waitFor();
    await page.getByRole('link', { name: 'every-2s', exact: true }).waitFor();
  });

  it('shows a firing of the schedule in executions within one refresh, without a reload', async () => {
    await nav(page, 'Executions');
    await page.getByLabel('Source').selectOption('CRON');
    await page.waitForURL(/source=CRON/);
    const rows = page.getByRole('table', { name: 'Executions, newest first' }).locator('tbody tr');
    const total = page.locator('.pagination span[aria-live]');
    await page.locator('.live-age', { hasText: /updated \d+ s ago/ }).waitFor();
    const before = (await total.count()) > 0 ? await total.innerText() : 'none';
    const started = Date.now();
    // The next 10 s refresh brings the firings of the last seconds.
    await page.waitForFunction(
      (prev) => (document.querySelector('.pagination span[aria-live]')?.textContent ?? 'none') !== prev,
      before,
      { timeout: 12_000 },
    );
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(await rows.first().innerText()).toMatch(/CRON[\s\S]*word-count[\s\S]*(completed|running)/);
    await shot(page, 'executions-cron');
    await expectAccessible(page, 'executions (cron)');
  });

  it('disables the schedule; a duplicate name is refused beside the field (409)', async () => {
    await nav(page, 'Cron');
    await page.getByRole('button', { name: 'Disable every-2s' }).click();
    await page.getByRole('button', { name: 'Enable every-2s' }).waitFor();
    const [tab] = (await api<{ content: Crontab[] }>(host, '/crontabs')).content;
    expect(tab).toMatchObject({ name: 'every-2s', enabled: false });
    await shot(page, 'cron');
    await expectAccessible(page, 'cron');
    await page.getByRole('link', { name: 'New schedule' }).click();
    await page.getByLabel('Name').fill('every-2s');
    await page.getByLabel('Definition to start').selectOption('word-count');
    await page.getByLabel('Args (JSON object)').fill('{"text": "x"}');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.locator('#cron-name-error', { hasText: '(409)' }).waitFor();
    await expectAccessible(page, 'cron editor with an error');
  });

  it('edits a schedule: the preview follows the expression', async () => {
    await nav(page, 'Cron');
    await page.getByRole('link', { name: 'every-2s', exact: true }).click();
    await page.getByLabel('Cron expression (six fields, seconds first)').fill('0 0 6 * * 1-5');
    await page.getByText('At 06:00, Monday through Friday').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('table', { name: 'Cron schedules' }).getByText('0 0 6 * * 1-5').waitFor();
  });

  it('lists definitions and creates one (database source)', async () => {
    await nav(page, 'Definitions');
    await page.getByRole('table', { name: 'Definitions by process type' }).waitFor();
    await page.getByText('Source: database').waitFor();
    await shot(page, 'definitions');
    await expectAccessible(page, 'definitions');
    await page.getByRole('link', { name: 'New definition' }).click();
    await page
      .getByLabel('Definition (JSON)')
      .fill(
        JSON.stringify(
          { processType: 'e2e-audit', leaf: true, predecessorProcessType: 'word-count', predecessorArgs: 'OUTPUT' },
          null,
          2,
        ),
      );
    await page.getByRole('button', { name: 'Create definition' }).click();
    await page.waitForURL('**/t/demo/definitions/e2e-audit');
    await page.getByRole('heading', { name: 'Definition e2e-audit' }).waitFor();
    await page.getByText('word-count, args OUTPUT').waitFor();
  });

  it('shows the predecessor cycle and the duplicate as the API reports them', async () => {
    await page.goto(`${host.url}/t/demo/definitions/word-count`);
    await signIn(page, host.key);
    const editor = page.getByLabel('Definition (JSON)');
    await editor.waitFor();
    const def = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
    await editor.fill(JSON.stringify({ ...def, predecessorProcessType: 'e2e-audit' }, null, 2));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /\(400\).*cycle/i })
      .waitFor();
    await shot(page, 'definition-edit');
    await expectAccessible(page, 'definition editor');
    await page.goto(`${host.url}/t/demo/definitions/new`);
    await signIn(page, host.key);
    await page.getByLabel('Definition (JSON)').fill(JSON.stringify({ processType: 'e2e-audit', leaf: true }));
    await page.getByRole('button', { name: 'Create definition' }).click();
    await page.getByRole('alert').filter({ hasText: '(409)' }).waitFor();
  });

  it('switches the theme by hand (system → light → dark)', async () => {
    await nav(page, 'Processes');
    await page.getByRole('button', { name: 'Theme: system (switch)' }).click();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('light');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
    await page.keyboard.press('Shift+T');
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    await page.getByRole('table', { name: 'Processes, newest first' }).waitFor();
    await shot(page, 'processes-dark');
    await expectAccessible(page, 'processes (dark)');
  });
});
