/** Helpers of the process dashboard's browser suites (the dashboard at `/` of the dev admin server). */
import type { Browser, Page } from 'playwright-core';
import { openPage, screenshot, seriousA11yViolations } from '../../src/browser';
import type { DevAdminServer } from '../../src/hosts';

export const PACKAGE = 'apps/process-dashboard';

export interface DashboardPage {
  page: Page;
  /** Uncaught page errors (a view that throws fails the test). */
  errors: string[];
  /** Every console message and every URL the page navigated to (the key must be in none). */
  console: string[];
  urls: string[];
}

export async function dashboardPage(browser: Browser, colorScheme: 'light' | 'dark' = 'light'): Promise<DashboardPage> {
  const page = await openPage(browser, { colorScheme });
  const errors: string[] = [];
  const console: string[] = [];
  const urls: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => console.push(msg.text()));
  page.on('framenavigated', (frame) => urls.push(frame.url()));
  page.on('request', (req) => urls.push(req.url()));
  return { page, errors, console, urls };
}

/** Fills the sign-in form (the page must show it) and waits for the signed-in frame. */
export async function signIn(page: Page, key: string, tenant = 'demo'): Promise<void> {
  try {
    await page.getByLabel('Administration key').waitFor({ timeout: 60_000 });
  } catch (err) {
    const body = await page.evaluate(() => document.body.innerText.slice(0, 500)).catch(() => '(no page)');
    throw new Error(`no sign-in form at ${page.url()}: ${body}`, { cause: err });
  }
  await page.getByLabel('Administration key').fill(key);
  await page.getByLabel('Tenant', { exact: true }).fill(tenant);
  await page.getByRole('button', { name: 'Open the dashboard' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Calls the administration API directly (seeding, checks). */
export async function api<T>(
  host: DevAdminServer,
  path: string,
  init: { method?: string; body?: unknown; tenant?: string } = {},
): Promise<T> {
  const res = await fetch(`${host.url}/process-management/api${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'X-Process-Management-Key': host.key,
      'x-fw-tenant-id': init.tenant ?? 'demo',
      'Content-Type': 'application/json',
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Polls `check` until it returns a value (not undefined). */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMillis: number,
  what: string,
): Promise<T> {
  const until = Date.now() + timeoutMillis;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMillis} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** No serious or critical axe violation; on failure the message lists them. */
export async function expectAccessible(page: Page, view: string): Promise<void> {
  const violations = await seriousA11yViolations(page);
  expect({ view, violations }).toEqual({ view, violations: [] });
}

export async function shot(page: Page, name: string): Promise<void> {
  await screenshot(page, PACKAGE, name);
}

/** Texts of the first cell of each body row of the table labelled `label`. */
export async function firstCells(page: Page, label: string): Promise<string[]> {
  return page.getByRole('table', { name: label }).locator('tbody tr td:first-child').allInnerTexts();
}

/** Opens a main view through the navigation bar. */
export async function nav(
  page: Page,
  view: 'Processes' | 'Executions' | 'Trigger' | 'Cron' | 'Definitions' | 'Health' | 'Audit',
): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: view, exact: true }).click();
}
