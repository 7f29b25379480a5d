/**
 * fw-ecosystem end to end: the generator composes the ecosystem with every option on; its monolith
 * is compiled (tsc, the project's own tsconfig) against this workspace's built @fw packages —
 * no npm install, which would take minutes — and started as its own process (`node dist/src/main.js`,
 * as `npm start` does). In a real Chromium, its admin UI at /fw/admin lists every service it hosts:
 * the composed shop service and its built-in notes service. The full install-and-test of a
 * generated ecosystem from the packed tarballs is CI's pack-check.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
// The generator in process (its sources under Jest, through the workspace's module mapping).
import { runCli } from '@fw/generator';
import { launchBrowser, ROOT, screenshot } from '../../src/browser';
import { expectAccessible, serviceRows, uiPage } from '../admin-ui/support';

const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const ANSWERS = {
  security: true,
  jpa: true,
  includeServiceRegistry: true,
  includeCconfig: true,
  includeHeadlessService: true,
  includeQueryService: true,
  destFolder: 'shop',
};

/** Compiles one generated package with its own tsconfig; @fw/* and third-party modules from the workspace. */
function build(project: string, folder: string): void {
  const dir = path.join(project, folder);
  const config = path.join(dir, 'tsconfig.e2e.json');
  writeFileSync(
    config,
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: {
        baseUrl: ROOT,
        paths: {
          '@fw/core/http': ['node_modules/@fw/core/dist/http.d.ts'],
          '@fw/service/mcp': ['node_modules/@fw/service/dist/mcp.d.ts'],
          express: ['node_modules/@types/express/index.d.ts'],
          '*': ['node_modules/*', 'node_modules/@types/*'],
        },
        typeRoots: [path.join(ROOT, 'node_modules/@types')],
      },
    }),
  );
  try {
    execFileSync(process.execPath, [TSC, '-p', config], { encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    throw new Error(`tsc ${folder} failed:\n${(err as { stdout?: string }).stdout ?? ''}`, { cause: err });
  }
}

/** What npm workspaces would do: node_modules/<name> → the package folder. */
function link(project: string, name: string, folder: string): void {
  const target = path.join(project, 'node_modules', name);
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(path.join(project, folder), target);
}

/** Starts the compiled monolith; resolves with its URL from the line `npm start` prints. */
function startMonolith(dir: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: dir,
    env: { ...process.env, ...env, NODE_PATH: path.join(ROOT, 'node_modules') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`monolith did not start in 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`monolith exited (${code}):\n${output}`));
    });
  });
}

describe('fw-ecosystem: the generated monolith in the browser', () => {
  let dir: string;
  let browser: Browser;
  let monolith: { child: ChildProcess; url: string };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fw-e2e-ecosystem-'));
    const io = { out: () => undefined, err: (l: string) => process.stderr.write(`${l}\n`), cwd: dir };
    expect(await runCli(['-g', 'fw-ecosystem', '-o', 'input.json'], io)).toBe(0);
    const input = JSON.parse(readFileSync(path.join(dir, 'input.json'), 'utf8')) as {
      answers: Record<string, unknown>;
    };
    writeFileSync(
      path.join(dir, 'input.json'),
      JSON.stringify({ blueprint: 'fw-ecosystem', answers: { ...input.answers, ...ANSWERS } }),
    );
    expect(await runCli(['-f', 'input.json'], io)).toBe(0);
    const project = path.join(dir, 'shop');
    link(project, '@example/shop-service-api', 'shop-service/shop-service-api');
    link(project, '@example/shop-service-service', 'shop-service/shop-service-service');
    for (const folder of ['shop-service/shop-service-api', 'shop-service/shop-service-service', 'shop-monolith'])
      build(project, folder);
    monolith = await startMonolith(path.join(project, 'shop-monolith'), {
      PORT: '0',
      SHOP_MONOLITH_DATABASE_URL: 'pglite:memory:',
      SHOP_SERVICE_DATABASE_URL: 'pglite:memory:',
      SHOP_SERVICE_JWT_SECRET: 'an-e2e-secret-of-at-least-32-characters',
      SHOP_MONOLITH_JWT_SECRET: 'an-e2e-secret-of-at-least-32-characters',
      // No registry runs here: the delegate keeps retrying in the background, which must not matter.
      SERVICE_REGISTRY_URL: 'http://127.0.0.1:9',
    });
    browser = await launchBrowser();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    monolith?.child.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the composed service and the built-in one at /fw/admin, accessibly', async () => {
    const { page, errors } = await uiPage(browser);
    await page.goto(`${monolith.url}/fw/admin/`);
    await page.locator('table.services tbody tr').first().waitFor();
    const until = Date.now() + 10_000;
    let names: string[] = [];
    while (!(names.includes('shop-service') && names.includes('shop-monolith-notes')) && Date.now() < until) {
      names = (await serviceRows(page)).map((r) => r.split(' ')[0]);
      await page.waitForTimeout(100);
    }
    expect(names).toEqual(expect.arrayContaining(['shop-service', 'shop-monolith-notes']));
    await screenshot(page, 'tools/generator', 'ecosystem-monolith-admin');
    await expectAccessible(page, 'ecosystem monolith services');
    expect(errors).toEqual([]);
  });
});
