/**
 * A real Prometheus server of the test's own: Debian's `/usr/bin/prometheus` on a free loopback
 * port scraping the given jobs every second, its TSDB and config in a temporary folder removed by
 * `stop()`. Without the binary it fails (never skips) saying how to install it.
 *
 * @example
 * const prometheus = await startPrometheus([{ name: 'fw', target: '127.0.0.1:9464', bearerToken: 't' }]);
 * const [sample] = await prometheus.query('sum(fw_processes_finished_total)');
 * await prometheus.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from './local-port';

export const PROMETHEUS_BINARY = '/usr/bin/prometheus';

/** One scrape job: `target` is `host:port`; `bearerToken` goes into its `authorization` config. */
export interface ScrapeJob {
  name: string;
  target: string;
  bearerToken?: string;
}

/** One series of an instant query: labels and `[unix seconds, value text]`. */
export interface InstantSample {
  metric: Record<string, string>;
  value: [number, string];
}

/** One series of a range query: labels and its `[unix seconds, value text]` points. */
export interface RangeSeries {
  metric: Record<string, string>;
  values: [number, string][];
}

/** A started Prometheus and its HTTP API. */
export interface RunningPrometheus {
  readonly url: string;
  /** The `data.result` of an instant query (`/api/v1/query`). */
  query(promql: string): Promise<InstantSample[]>;
  /** The `data.result` of a range query (`/api/v1/query_range`), times in unix seconds. */
  queryRange(promql: string, range: { start: number; end: number; stepSeconds: number }): Promise<RangeSeries[]>;
  /** The active targets with their health and last error. */
  targets(): Promise<{ labels: Record<string, string>; health: string; lastError: string }[]>;
  /** Output of the process, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

function configText(jobs: ScrapeJob[]): string {
  const lines = ['global:', '  scrape_interval: 1s', '  scrape_timeout: 1s', 'scrape_configs:'];
  for (const job of jobs) {
    lines.push(`  - job_name: ${JSON.stringify(job.name)}`, '    metrics_path: /metrics');
    if (job.bearerToken) lines.push('    authorization:', `      credentials: ${JSON.stringify(job.bearerToken)}`);
    lines.push('    static_configs:', `      - targets: [${JSON.stringify(job.target)}]`);
  }
  return `${lines.join('\n')}\n`;
}

async function apiGet<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const body = (await response.json()) as { status: string; data: T; error?: string };
  if (body.status !== 'success') throw new Error(`Prometheus API ${url}: ${body.error ?? response.status}`);
  return body.data;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}:\n${output()}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`prometheus was not ready after 30 s:\n${output()}`);
}

/** `/usr/bin/prometheus`, or an error saying how to install it. */
export function prometheusBinary(): string {
  if (existsSync(PROMETHEUS_BINARY)) return PROMETHEUS_BINARY;
  throw new Error(`${PROMETHEUS_BINARY} is missing: apt-get install prometheus`);
}

/** Starts Prometheus scraping `jobs` every second and waits until it is ready. */
export async function startPrometheus(jobs: ScrapeJob[]): Promise<RunningPrometheus> {
  const binary = prometheusBinary();
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(config, configText(jobs));
  const port = await freePort();
  const child = spawn(
    binary,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    query: async (promql) =>
      (await apiGet<{ result: InstantSample[] }>(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`)).result,
    queryRange: async (promql, { start, end, stepSeconds }) =>
      (
        await apiGet<{ result: RangeSeries[] }>(
          `${url}/api/v1/query_range?query=${encodeURIComponent(promql)}&start=${start}&end=${end}&step=${stepSeconds}`,
        )
      ).result,
    targets: async () =>
      (
        await apiGet<{ activeTargets: { labels: Record<string, string>; health: string; lastError: string }[] }>(
          `${url}/api/v1/targets`,
        )
      ).activeTargets,
    output: () => log,
    stop,
  };
}
