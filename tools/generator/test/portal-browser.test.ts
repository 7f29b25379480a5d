/**
 * The portal page (the built React app of portal-web/, `npm run build-web`; nx runs it before
 * `test`) in a real browser (Debian's chromium-headless-shell through playwright-core, as the other
 * web apps' end-to-end suites; FW_CHROMIUM overrides the path): pick a blueprint, fill its prompts,
 * upload the processSpec, generate with the log streaming, see the tree, open a file, run the tests
 * (npm replaced by a recorder: the real run is in tools/pack-check), download the zip; axe-core finds
 * no serious or critical accessibility problem, and the session token is in no storage or URL.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BUILTIN_BLUEPRINTS_DIR, makeBlueprintCatalog } from '../src/blueprint/catalog';
import { DEFAULT_CONFIG } from '../src/config/generator-config';
import { makePortalApp } from '../src/portal/portal-app';
import { removeTempDirs, tempDir } from './support';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// playwright-core is the workspace's browser driver (tools/e2e); resolved from the root.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromium } = require(
  require.resolve('playwright-core', { paths: [path.resolve(__dirname, '../../..')] }),
) as typeof import('playwright-core');

const WEB_DIR = path.resolve(__dirname, '../dist/portal-web');
const SPEC_FILE = path.join(BUILTIN_BLUEPRINTS_DIR, 'fw-process-management/META-INF/samples/process-spec.json');

let server: Server;
let url: string;
const commands: string[] = [];

beforeAll(async () => {
  if (!existsSync(path.join(WEB_DIR, 'index.html')))
    throw new Error(`the portal page is not built (${WEB_DIR}): run npm run build-web in tools/generator first`);
  const portal = makePortalApp({
    catalog: makeBlueprintCatalog(),
    config: DEFAULT_CONFIG,
    root: tempDir('fw-gen-portal-'),
    webDir: WEB_DIR,
    runCommand: async (command, args, _cwd, log) => {
      commands.push(`${command} ${args.join(' ')}`);
      log(`ran ${command} ${args.join(' ')}`);
    },
  });
  server = portal.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  removeTempDirs();
});

type Violation = { id: string; impact: string | null; help: string; nodes: string[] };
type Page = import('playwright-core').Page;

/** axe-core evaluated in the page (through the DevTools protocol, so the page's CSP stays on); serious and critical violations. */
async function seriousA11yViolations(page: Page): Promise<Violation[]> {
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(`${axeSource}\n;undefined`);
  const violations = await page.evaluate(async () => {
    type AxeResult = {
      violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
    };
    const w = globalThis as unknown as {
      axe: { run: (ctx: unknown, opts: unknown) => Promise<AxeResult> };
      document: unknown;
    };
    const result = await w.axe.run(w.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

it('picks a blueprint, fills the prompts, generates, shows the tree, runs the tests and downloads', async () => {
  const browser = await chromium.launch({
    executablePath: process.env.FW_CHROMIUM || '/usr/bin/chromium-headless-shell',
  });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    let token = '';
    page.on('response', async (r) => {
      if (r.url().endsWith('/api/sessions') && r.request().method() === 'POST')
        token = ((await r.json()) as { token: string }).token;
    });
    await page.goto(url);
    const blueprint = page.getByLabel('Blueprint', { exact: true });
    await blueprint.selectOption('fw-process-management');
    // Defaults: a list has its default chosen, a text field shows its default.
    expect(await page.getByLabel('Where the process definitions live at run time').inputValue()).toBe('database');
    expect(await page.getByLabel('Application name (package and folder names)').getAttribute('placeholder')).toBe(
      'orders',
    );
    // visibleWhen: the registry URL is asked only once registration is ticked.
    const registryUrl = page.getByLabel('Base URL of the service registry');
    const register = page.getByLabel('Register the process services in a service registry');
    expect(await registryUrl.count()).toBe(0);
    await register.check();
    await registryUrl.waitFor();
    await register.uncheck();
    await registryUrl.waitFor({ state: 'detached' });
    await page.getByLabel('Application name (package and folder names)').fill('webshop');
    await page.getByLabel('Where the process definitions live at run time').selectOption('json');
    const log = page.getByRole('log');
    const shows = (locator: ReturnType<Page['locator']>, text: string, timeout = 10_000) =>
      locator.filter({ hasText: text }).waitFor({ timeout });
    await page.getByLabel('The processSpec JSON file (processes and cronTriggers)').setInputFiles(SPEC_FILE);
    await shows(log, 'uploaded uploads/process-spec.json');
    await page.getByRole('button', { name: 'Generate' }).click();
    await shows(log, '== generation succeeded', 20_000);
    expect(await log.textContent()).toMatch(
      /\[4\/6\] render into staging[\s\S]*generated fw-process-management 0\.1\.0 into project\//,
    );
    const files = page.getByRole('list', { name: 'Workspace files' });
    await files.getByRole('button', { name: 'project/webshop-service/src/host.ts', exact: true }).click();
    await shows(page.getByRole('region', { name: 'Files' }).locator('pre'), "= 'json'");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Run tests' }).click();
    await shows(log, '== tests succeeded');
    expect(commands).toEqual(['npm install --no-audit --no-fund --prefer-offline', 'npm test']);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download zip' }).click();
    const file = await (await download).path();
    expect(readFileSync(file!).subarray(0, 2).toString()).toBe('PK');
    // The token stays in the page's memory: no storage, no cookie, no URL.
    const stored = await page.evaluate(() => {
      const w = globalThis as unknown as { localStorage: object; sessionStorage: object; document: { cookie: string } };
      return JSON.stringify([{ ...w.localStorage }, { ...w.sessionStorage }, w.document.cookie]);
    });
    expect(token).not.toBe('');
    expect(stored).not.toContain(token);
    expect(urls.filter((u) => u.includes(token))).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
}, 60_000);
