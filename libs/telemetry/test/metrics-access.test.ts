import express from 'express';
import request from 'supertest';
import { Gauge, Registry } from 'prom-client';
import {
  makeFwMetrics,
  makeMetricsHandler,
  METRICS_HIDDEN_MESSAGE,
  resolveMetricsPort,
  serveMetrics,
  type MetricsHandlerOptions,
} from '@fw/telemetry';

function recordingLog(): { lines: string[]; info(m: string): void; warn(m: string): void } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) };
}

function appWith(options: Omit<MetricsHandlerOptions, 'registry'>, registry?: Registry): express.Express {
  const metrics = makeFwMetrics(registry ?? new Registry(), { defaultMetrics: false });
  metrics.processCreated({ tenant: 'acme', processType: 'invoice' });
  const app = express();
  app.get('/metrics', makeMetricsHandler({ ...options, registry: metrics.registry }));
  return app;
}

describe('GET /metrics access', () => {
  it('with a token: 401 without it or with a wrong one, the metrics with the right one', async () => {
    const app = appWith({ profile: 'production', token: 's3cret-token', log: recordingLog() });
    const missing = await request(app).get('/metrics');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect((await request(app).get('/metrics').set('Authorization', 'Bearer s3cret-tokeN')).status).toBe(401);
    expect((await request(app).get('/metrics').set('Authorization', 'Bearer s3cret')).status).toBe(401);
    expect((await request(app).get('/metrics').set('Authorization', 'Basic czNjcmV0LXRva2Vu')).status).toBe(401);
    const ok = await request(app).get('/metrics').set('Authorization', 'Bearer s3cret-token');
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(ok.text).toContain('fw_processes_created_total{tenant="acme",process_type="invoice"} 1\n');
  });

  it('the dev profile also requires the token when one is set', async () => {
    const app = appWith({ profile: 'dev', token: 'dev-token' });
    expect((await request(app).get('/metrics')).status).toBe(401);
  });

  it('production without a token: 404, and one start-up line saying how to turn it on', async () => {
    const log = recordingLog();
    const app = appWith({ profile: 'production', token: '', log });
    const answer = await request(app).get('/metrics');
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain('fw_');
    await request(app).get('/metrics');
    expect(log.lines).toEqual([`info ${METRICS_HIDDEN_MESSAGE}`]);
    expect(METRICS_HIDDEN_MESSAGE).toContain('FW_METRICS_TOKEN');
  });

  it('dev profile without a token: served open, nothing logged', async () => {
    const log = recordingLog();
    const answer = await request(appWith({ profile: 'dev', token: undefined, log })).get('/metrics');
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('# TYPE fw_work_items gauge');
    expect(log.lines).toEqual([]);
  });

  it('takes the token from FW_METRICS_TOKEN when the option is absent', async () => {
    const saved = process.env.FW_METRICS_TOKEN;
    process.env.FW_METRICS_TOKEN = 'from-env';
    try {
      const app = appWith({ profile: 'production' });
      expect((await request(app).get('/metrics')).status).toBe(401);
      expect((await request(app).get('/metrics').set('Authorization', 'Bearer from-env')).status).toBe(200);
    } finally {
      if (saved === undefined) delete process.env.FW_METRICS_TOKEN;
      else process.env.FW_METRICS_TOKEN = saved;
    }
  });

  it('a failed collection answers 500 with a line of text and logs it', async () => {
    const registry = new Registry();
    const log = recordingLog();
    const app = appWith({ profile: 'dev', log }, registry);
    registry.registerMetric(
      new Gauge({
        name: 'broken_gauge',
        help: 'Fails on collect.',
        registers: [],
        collect: () => {
          throw new Error('database is down');
        },
      }),
    );
    const answer = await request(app).get('/metrics');
    expect(answer.status).toBe(500);
    expect(answer.text).toBe('metrics collection failed\n');
    expect(log.lines).toEqual(['warn metrics collection failed: database is down']);
  });

  it('rejects an unknown profile', () => {
    expect(() => makeMetricsHandler({ registry: new Registry(), profile: 'staging' as 'dev', token: 'x' })).toThrow(
      `metrics profile must be 'dev' or 'production', got "staging"`,
    );
  });
});

describe('serveMetrics', () => {
  it('serves GET /metrics under the same rule, 404 elsewhere, 405 for other methods, and closes', async () => {
    const metrics = makeFwMetrics(new Registry(), { defaultMetrics: false });
    const server = await serveMetrics({
      registry: metrics.registry,
      profile: 'production',
      token: 'tok',
      port: 0,
      bindAddress: '127.0.0.1',
    });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      expect(server.url).toBe(`${base}/metrics`);
      expect((await request(base).get('/metrics')).status).toBe(401);
      expect((await request(base).get('/metrics?x=1').set('Authorization', 'Bearer tok')).status).toBe(200);
      expect((await request(base).get('/other')).status).toBe(404);
      expect((await request(base).post('/metrics')).status).toBe(405);
    } finally {
      await server.close();
      await server.close();
    }
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('needs a port: the option or FW_METRICS_PORT, each checked', async () => {
    expect(resolveMetricsPort(9464, {})).toBe(9464);
    expect(resolveMetricsPort(undefined, { FW_METRICS_PORT: ' 9100 ' })).toBe(9100);
    expect(resolveMetricsPort(undefined, {})).toBeUndefined();
    expect(() => resolveMetricsPort(undefined, { FW_METRICS_PORT: 'http' })).toThrow(
      'FW_METRICS_PORT must be a port number (0-65535), got "http"',
    );
    expect(() => resolveMetricsPort(70000, {})).toThrow('metricsPort must be a port number (0-65535), got 70000');
    const saved = process.env.FW_METRICS_PORT;
    delete process.env.FW_METRICS_PORT;
    try {
      await expect(serveMetrics({ registry: new Registry(), profile: 'dev' })).rejects.toThrow(
        'serveMetrics needs a port: the port option or FW_METRICS_PORT',
      );
    } finally {
      if (saved !== undefined) process.env.FW_METRICS_PORT = saved;
    }
  });
});
