/**
 * `npm run bench -- admin-ui [--runs N]`: what the admin UI costs a browser.
 *
 * - Sizes: the JavaScript and CSS the first load of `/fw/admin` fetches (raw and gzip, against the
 *   150 kB gzip budget of the initial JavaScript), and what is only fetched on demand (Mermaid).
 * - Time to the first meaningful paint: a bare express host with 200 services (the router of
 *   @fw/service and makeAdminUiRouter, nothing else), headless Chromium with a cold cache per
 *   run, from navigation start until the 200th row of the services list is in the page, plus the
 *   browser's first contentful paint.
 */
import { makeAdminUiRouter, defaultAdminUiAssetsDir } from '@fw/admin-ui';
import { createLogger } from '@fw/core';
import { defineService, makeServiceRegistry, makeServiceRouter } from '@fw/service';
import express from 'express';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';

const ROOT = path.resolve(__dirname, '../../../..');
const INITIAL_BUDGET_GZIP = 150 * 1024;

interface Size {
  raw: number;
  gzip: number;
}

function sizeOf(files: readonly string[]): Size {
  return files.reduce(
    (sum, f) => {
      const bytes = readFileSync(f);
      return { raw: sum.raw + bytes.length, gzip: sum.gzip + gzipSync(bytes, { level: 9 }).length };
    },
    { raw: 0, gzip: 0 },
  );
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

function ensureBuilt(io: BenchIo): string {
  const dir = defaultAdminUiAssetsDir();
  if (!existsSync(path.join(dir, 'index.html'))) {
    io.out('admin-ui: building the app (npm run build-web -w @fw/admin-ui)');
    execFileSync('npm', ['run', 'build-web', '-w', '@fw/admin-ui'], { cwd: ROOT, stdio: 'inherit' });
  }
  return dir;
}

function reportSizes(dir: string, io: BenchIo): void {
  const index = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const initial = [...index.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => path.join(dir, m[1]));
  const initialJs = sizeOf(initial.filter((f) => f.endsWith('.js')));
  const initialCss = sizeOf(initial.filter((f) => f.endsWith('.css')));
  const all = readdirSync(path.join(dir, 'assets')).map((f) => path.join(dir, 'assets', f));
  const lazy = sizeOf(all.filter((f) => f.endsWith('.js') && !initial.includes(f)));
  const total = all.reduce((n, f) => n + statSync(f).size, 0);
  io.out(
    `initial JavaScript: ${kb(initialJs.raw)} raw, ${kb(initialJs.gzip)} gzip (budget ${kb(INITIAL_BUDGET_GZIP)} gzip: ${initialJs.gzip <= INITIAL_BUDGET_GZIP ? 'within' : 'OVER'})`,
  );
  io.out(`initial CSS: ${kb(initialCss.raw)} raw, ${kb(initialCss.gzip)} gzip`);
  io.out(
    `on demand (Mermaid and its diagram types, workflow view only): ${all.length - initial.length} files, ${kb(lazy.raw)} raw, ${kb(lazy.gzip)} gzip`,
  );
  io.out(`whole build: ${kb(total)} in ${all.length + 2} files`);
  io.out(`initial_js_gzip_bytes=${initialJs.gzip}`);
}

async function startHost(): Promise<{ server: Server; url: string }> {
  const logger = createLogger({ name: 'admin-ui-bench', level: 'silent' });
  const services = Array.from({ length: 200 }, (_, i) =>
    defineService({
      name: `svc-${i}`,
      version: '1.0.0',
      description: `service ${i}`,
      operations: [{ name: 'get', method: 'GET', path: `/svc-${i}/{id}`, handler: async () => ({}) }],
      ...(i % 4 === 0 ? { healthCheck: async () => ({ healthy: true }) } : {}),
    }),
  );
  const registry = makeServiceRegistry({ host: { name: 'bench', version: '1.0.0' }, services, logger });
  const app = express();
  app.use(makeServiceRouter(registry, { logger }));
  app.use(makeAdminUiRouter());
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measurePaint(runs: number, io: BenchIo): Promise<void> {
  const executablePath = process.env.FW_CHROMIUM || '/usr/bin/chromium-headless-shell';
  if (!existsSync(executablePath))
    throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium-headless-shell, or set FW_CHROMIUM`);
  const host = await startHost();
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const listShown: number[] = [];
    const firstPaint: number[] = [];
    for (let run = 0; run <= runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${host.url}/fw/admin/`, { waitUntil: 'commit' });
      await page.locator('table.services tbody tr').nth(199).waitFor();
      const timing = await page.evaluate(() => ({
        now: performance.now(),
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
      }));
      await context.close();
      if (run === 0) continue; // the first run warms the server and the browser's process
      listShown.push(timing.now);
      firstPaint.push(timing.fcp);
      io.out(
        `run ${run}: first contentful paint ${timing.fcp.toFixed(0)} ms, 200-service list shown ${timing.now.toFixed(0)} ms`,
      );
    }
    io.out(
      `services list of 200 shown (cold cache, ${runs} runs): median ${median(listShown).toFixed(0)} ms, min ${Math.min(...listShown).toFixed(0)} ms, max ${Math.max(...listShown).toFixed(0)} ms; first contentful paint median ${median(firstPaint).toFixed(0)} ms`,
    );
    io.out(`list_shown_ms=${median(listShown).toFixed(0)}`);
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => host.server.close(() => resolve()));
  }
}

export const adminUiBench: BenchRunner = {
  description:
    'admin UI: initial JavaScript size against the 150 kB gzip budget, and time to the 200-service list in headless Chromium',
  async run(options: BenchOptions, io: BenchIo) {
    reportSizes(ensureBuilt(io), io);
    await measurePaint(options.runs ?? 5, io);
  },
};
