// A real Prometheus server for the scrape test: Debian's /usr/bin/prometheus on a free loopback
// port, its TSDB and config in a temporary folder removed by stop().
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from '@fw/test-support';

export const PROMETHEUS_BINARY = '/usr/bin/prometheus';

export interface ScrapeJob {
  name: string;
  target: string;
  bearerToken?: string;
}

export interface RunningPrometheus {
  readonly url: string;
  /** The `data.result` of an instant query. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
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

export async function startPrometheus(jobs: ScrapeJob[]): Promise<RunningPrometheus> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-telemetry-prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(config, configText(jobs));
  const port = await freePort();
  const child = spawn(
    PROMETHEUS_BINARY,
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
      (
        await apiGet<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(
          `${url}/api/v1/query?query=${encodeURIComponent(promql)}`,
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
