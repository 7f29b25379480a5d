import type { Browser, Page } from 'playwright-core';
import { openPage, screenshot, seriousA11yViolations } from '../../src/browser';

export const PACKAGE = 'libs/admin-ui';

/** A page that records uncaught errors (a view that throws fails the test that opened it). */
export async function uiPage(
  browser: Browser,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ page: Page; errors: string[] }> {
  const page = await openPage(browser, { colorScheme });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { page, errors };
}

/** Rows of the services table, as "name kind version health" strings. */
export async function serviceRows(page: Page): Promise<string[]> {
  return page.locator('table.services tbody tr').evaluateAll((rows) =>
    rows.map((r) =>
      Array.from(r.querySelectorAll('td'))
        .slice(0, 4)
        .map((td) => td.textContent?.trim())
        .join(' '),
    ),
  );
}

/** The rows once they equal `expected` (React renders after the event), or the last rows seen after 5 s. */
export async function rowsSettled(page: Page, expected: string[]): Promise<string[]> {
  const until = Date.now() + 5000;
  let rows = await serviceRows(page);
  while (JSON.stringify(rows) !== JSON.stringify(expected) && Date.now() < until) {
    await page.waitForTimeout(50);
    rows = await serviceRows(page);
  }
  return rows;
}

/** No serious or critical axe violation; on failure the message lists them. */
export async function expectAccessible(page: Page, view: string): Promise<void> {
  const violations = await seriousA11yViolations(page);
  expect({ view, violations }).toEqual({ view, violations: [] });
}

export async function shot(page: Page, name: string): Promise<void> {
  await screenshot(page, PACKAGE, name);
}
