/**
 * Deleting a finished tree from the process dashboard, in Chromium against the real dev admin
 * server (example workers): the admin confirms and the tree is gone from the API and the list; a
 * tree removed meanwhile by someone else answers 404, said once in words with nothing stale left;
 * a child and an operator get no delete button; axe on the confirmation and the refusal.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../src/browser';
import { startDevAdminServer, type DevAdminServer } from '../../src/hosts';
import { api, dashboardPage, eventually, expectAccessible, shot, signIn, type DashboardPage } from './support';
import { makeJwksTokens, type JwksTokens } from './jwks-tokens';

const TEXT = [
  'one tree to delete and one to keep, each counted in chunks of twenty words by the example workers,',
  'so that a root has a few children: the splitter cuts this text into three chunks and the aggregator',
  'merges their counts before the report of the most frequent words runs as the successor of the tree',
].join(' ');

interface Summary {
  id: string;
  processType: string;
  status: string;
  parentId: string | null;
}

describe('process dashboard: deleting a finished tree', () => {
  let host: DevAdminServer;
  let browser: Browser;
  let jwks: JwksTokens | undefined;
  let operatorToken: string;
  let dash: DashboardPage;
  let page: Page;

  /** Triggers word-count with `key` and waits until its root has finished; the root. */
  async function finishedRoot(key: string): Promise<Summary> {
    await api(host, '/triggers', {
      method: 'POST',
      body: { triggerId: key, payload: { processDefName: 'word-count', args: { text: TEXT } } },
    });
    return eventually(
      async () => {
        const roots = await api<{ content: Summary[] }>(
          host,
          `/processes?triggerId=${encodeURIComponent(`manual:demo:${key}`)}&processType=word-count`,
        );
        return roots.content.find((p) => p.status === 'PROCESSED');
      },
      30_000,
      `the word count ${key} to finish`,
    );
  }

  beforeAll(async () => {
    jwks = await makeJwksTokens('removal');
    operatorToken = await jwks.sign('otto', ['operator'], ['demo']);
    [host, browser] = await Promise.all([startDevAdminServer(jwks.env), launchBrowser()]);
    dash = await dashboardPage(browser);
    page = dash.page;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    jwks?.dispose();
  });

  afterEach(() => expect(dash.errors).toEqual([]));

  it('the admin confirms, the whole tree is gone from the API and the list says so', async () => {
    const root = await finishedRoot('e2e-delete-1');
    const kept = await finishedRoot('e2e-keep-1');
    const children = await api<{ content: Summary[] }>(host, `/processes?parentId=${root.id}`);
    expect(children.content.length).toBeGreaterThan(0);

    await page.goto(`${host.url}/t/demo/processes/${root.id}`);
    await signIn(page, host.key);
    await page.getByRole('heading', { level: 1, name: /word-count/ }).waitFor();
    await page.getByRole('button', { name: 'Delete tree…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this process and its whole tree?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(`and its ${children.content.length} children`);
    await shot(page, 'process-delete');
    await expectAccessible(page, 'process detail: delete confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await api<Summary>(host, `/processes/${root.id}`)).toMatchObject({ id: root.id });

    await page.getByRole('button', { name: 'Delete tree…' }).click();
    await page.getByRole('button', { name: 'Delete the tree' }).click();
    await page.getByRole('heading', { level: 1, name: 'Processes' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/t/demo/processes');
    await page
      .getByRole('status')
      .filter({ hasText: /^Deleted word-count \S+ with its whole tree\.$/ })
      .waitFor();
    const table = page.getByRole('table', { name: 'Processes, newest first' });
    await table.locator(`a[href$="/processes/${kept.id}"]`).first().waitFor();
    expect(await table.locator(`a[href$="/processes/${root.id}"]`).count()).toBe(0);
    await expect(api(host, `/processes/${root.id}`)).rejects.toThrow(/: 404 /);
    expect((await api<{ totalElements: number }>(host, `/processes?parentId=${root.id}`)).totalElements).toBe(0);
    await expectAccessible(page, 'processes after a deletion');
  });

  it('a tree removed meanwhile answers 404, said in words; a child has no delete button', async () => {
    const root = await finishedRoot('e2e-delete-2');
    await page.goto(`${host.url}/t/demo/processes/${root.id}`);
    await signIn(page, host.key);
    await page.getByRole('button', { name: 'Delete tree…' }).click();
    // Someone else removes it first.
    await api(host, `/processes/${root.id}`, { method: 'DELETE' });
    await page.getByRole('button', { name: 'Delete the tree' }).click();
    // The answer says it is gone: the view says so once, and shows nothing of the earlier read.
    const refusal = page.getByRole('alert').filter({ hasText: 'Not found in this tenant (404)' });
    await refusal.waitFor();
    await page.getByRole('heading', { level: 2, name: 'Facts' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(await refusal.innerText()).toMatch(/removed already, by the history sweeper or from another window/);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await shot(page, 'process-delete-refused');
    await expectAccessible(page, 'process detail: deletion refused');
    await refusal.getByRole('link', { name: 'Back to the processes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Processes' }).waitFor();

    const kept = await finishedRoot('e2e-keep-2');
    const child = (await api<{ content: Summary[] }>(host, `/processes?parentId=${kept.id}`)).content[0];
    await page.goto(`${host.url}/t/demo/processes/${child.id}`);
    await signIn(page, host.key);
    await page.getByRole('link', { name: 'Up to the parent' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete tree…' }).count()).toBe(0);
  });

  it('an operator sees the finished root without a delete button', async () => {
    const root = await finishedRoot('e2e-keep-3');
    const operator = await dashboardPage(browser);
    try {
      await operator.page.goto(`${host.url}/t/demo/processes/${root.id}`);
      await operator.page.getByRole('radio', { name: 'Token', exact: true }).check();
      await operator.page.getByLabel('Bearer token (JWT)').fill(operatorToken);
      await operator.page.getByLabel('Tenant', { exact: true }).fill('demo');
      await operator.page.getByRole('button', { name: 'Open the dashboard' }).click();
      await operator.page.getByRole('heading', { level: 2, name: 'Facts' }).waitFor();
      await operator.page.getByText('jwt:otto · operator').waitFor();
      expect(await operator.page.getByRole('button', { name: 'Delete tree…' }).count()).toBe(0);
      expect(operator.errors).toEqual([]);
    } finally {
      await operator.page.context().close();
    }
  });
});
