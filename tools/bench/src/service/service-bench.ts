/**
 * `npm run bench -- service`: an echo operation through the @fw/service registry's HTTP binding
 * (schema check of the body, two interceptors, output check, envelope) against a bare express
 * handler doing the same validation and answering the same envelope. Each server runs in its own
 * process; both are warmed up, then measured in alternating rounds; prints req/s, p50 and p99 of
 * each and the ratio registry / bare.
 */
import * as path from 'node:path';
import type { BenchIo, BenchOptions, BenchRunner } from '../bench-types';
import { runLoad, type LoadResult } from '../load/load-generator';
import { startServerProcess } from '../load/server-process';
import { BENCH_API_KEY } from './service-echo';

const SERVER = path.join(__dirname, 'service-server.ts');
const BODY = JSON.stringify({ text: 'hello from the bench', count: 3, tags: ['a', 'b'] });
const ROUNDS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export const serviceBench: BenchRunner = {
  description:
    'echo operation through the @fw/service HTTP binding (2 interceptors) against a bare express handler with the same validation',
  async run(options: BenchOptions, io: BenchIo) {
    const servers = {
      registry: await startServerProcess(SERVER, ['registry']),
      bare: await startServerProcess(SERVER, ['bare']),
    };
    try {
      const load = (port: number, requests: number): Promise<LoadResult> =>
        runLoad({
          url: `http://127.0.0.1:${port}/echo`,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': BENCH_API_KEY },
          body: BODY,
          requests,
          connections: options.connections,
        });
      const warm = options.warmup ?? Math.min(20_000, options.requests * 2);
      for (const s of Object.values(servers)) if (warm > 0) await load(s.port, warm);
      const results: Record<'registry' | 'bare', LoadResult[]> = { registry: [], bare: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const name of ['bare', 'registry'] as const) {
          const r = await load(servers[name].port, options.requests);
          if (r.failures > 0) throw new Error(`${name}: ${r.failures} failed requests`);
          results[name].push(r);
          io.out(
            `round ${round + 1} ${name.padEnd(8)} ${r.requestsPerSecond.toFixed(0)} req/s  p50 ${r.latencyP50Ms} ms  p99 ${r.latencyP99Ms} ms`,
          );
        }
      }
      const rps = (name: 'registry' | 'bare') => median(results[name].map((r) => r.requestsPerSecond));
      const p99 = (name: 'registry' | 'bare') => median(results[name].map((r) => r.latencyP99Ms));
      io.out(
        `registry: ${rps('registry').toFixed(0)} req/s, p99 ${p99('registry')} ms; bare express: ${rps('bare').toFixed(0)} req/s, p99 ${p99('bare')} ms (medians of ${ROUNDS} rounds of ${options.requests} requests, ${options.connections} connections)`,
      );
      io.out(`ratio=${(rps('registry') / rps('bare')).toFixed(2)}`);
    } finally {
      await Promise.all(Object.values(servers).map((s) => s.stop()));
    }
  },
};
