/**
 * The real browser of the end-to-end suites: Debian's `chromium-headless-shell` driven by
 * playwright-core. Found through `FW_CHROMIUM` or `/usr/bin/chromium-headless-shell`;
 * `.ci/run` installs it with apt-get when missing.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const ROOT = path.resolve(__dirname, '../../..');

export function chromiumPath(): string {
  const candidate = process.env.FW_CHROMIUM || '/usr/bin/chromium-headless-shell';
  if (!existsSync(candidate)) {
    throw new Error(
      `no Chromium at ${candidate}: apt-get install -y chromium-headless-shell, or set FW_CHROMIUM to a Chromium binary`,
    );
  }
  return candidate;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/** A page with a fixed viewport and the colour scheme asked for (screenshots are comparable run to run). */
export async function openPage(
  browser: Browser,
  options: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  return page;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

let axeSource: string | undefined;

/** Runs axe-core in the page and returns the serious and critical violations (empty is the goal). */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, not as a <script> tag: the pages' Content-Security-Policy
  // (script-src 'self') stays on, so the scan sees the app exactly as users get it.
  await page.evaluate(`${axeSource}\n;undefined`);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: unknown,
          ) => Promise<{
            violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Saves a screenshot under `<package>/docs/screenshots/<name>.png` (committed when good, shown in
 * the package README).
 */
export async function screenshot(page: Page, packageDir: string, name: string): Promise<string> {
  const dir = path.join(ROOT, packageDir, 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}
