/**
 * The admin UI of the real query host (demo), with FW_INFO_ACCESS_KEY set: the UI asks for the key
 * on the 401, keeps it in memory only (not in storage, cookies or the URL; a reload asks again),
 * and shows the query service with one operation per named query and its filter schema.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../src/browser';
import { startQueryHostDemo, type RunningHost } from '../../src/hosts';
import { expectAccessible, rowsSettled, shot, uiPage } from './support';

const INFO_KEY = 'e2e-info-key-0123456789-0123456789-xyz';

describe('admin UI on the query host, behind an info key', () => {
  let host: RunningHost;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    [host, browser] = await Promise.all([startQueryHostDemo({ FW_INFO_ACCESS_KEY: INFO_KEY }), launchBrowser()]);
    ({ page, errors } = await uiPage(browser));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  afterEach(() => expect(errors).toEqual([]));

  it('asks for the key on the 401, refuses a wrong one, and lists the query service with the right one', async () => {
    expect(host.stdout()).toContain(`query-host: admin UI: ${host.url}/fw/admin/`);
    await page.goto(`${host.url}/fw/admin/services/query`);
    const field = page.getByLabel('Info key', { exact: true });
    await field.waitFor();
    await shot(page, 'key-prompt');
    await expectAccessible(page, 'key prompt');
    await field.fill('not-the-key');
    await page.keyboard.press('Enter');
    await page.getByText('The key given was refused.').waitFor();
    await page.getByLabel('Info key', { exact: true }).fill(INFO_KEY);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.getByRole('heading', { level: 1, name: /query/ }).waitFor();
    const books = page.locator('li.operation', { hasText: '/q/books' });
    await books.locator('summary').first().click();
    expect(await books.locator('.schema').first().innerText()).toMatch(/filters/);
    await shot(page, 'query-service');
    await expectAccessible(page, 'query service');
    await page.getByRole('link', { name: 'Services' }).first().click();
    expect(await rowsSettled(page, ['query query 0.1.0 healthy'])).toEqual(['query query 0.1.0 healthy']);
  });

  it('keeps the key in memory only: nothing in storage, cookies, IndexedDB or the URL; a reload asks again', async () => {
    const traces = await page.evaluate(async () => {
      const databases = typeof indexedDB.databases === 'function' ? await indexedDB.databases() : [];
      return [
        document.cookie,
        window.location.href,
        JSON.stringify({ ...localStorage }),
        JSON.stringify({ ...sessionStorage }),
        JSON.stringify(databases),
        history.state === null ? '' : JSON.stringify(history.state),
      ].join('\n');
    });
    expect(traces).not.toContain(INFO_KEY);
    const cookies = await page.context().cookies();
    expect(JSON.stringify(cookies)).not.toContain(INFO_KEY);
    await page.reload();
    await page.getByLabel('Info key', { exact: true }).waitFor();
    expect(await page.locator('table.services').count()).toBe(0);
  });
});
