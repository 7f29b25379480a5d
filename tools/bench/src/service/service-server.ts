// Server process of the `service` bench: an echo operation (`POST /echo`, the same JSON Schema for
// input and output) either through the @fw/service registry's HTTP binding with two interceptors
// (api-key security and metrics), or as a bare express handler doing the same work by hand: the
// key check, the input and the output validated with ajv, the envelope.
// usage (forked by the bench): node --import tsx service-server.ts registry|bare
import { createLogger, successEnvelope } from '@fw/core';
import {
  defineService,
  makeApiKeyInterceptor,
  makeMetricsInterceptor,
  makeServiceRegistry,
  makeServiceRouter,
} from '@fw/service';
import Ajv from 'ajv';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { serveOverIpc } from '../load/server-process';
import { BENCH_API_KEY, ECHO_SCHEMA } from './service-echo';

function registryApp(): express.Express {
  const echo = defineService({
    name: 'echo',
    version: '1.0.0',
    interceptors: [
      makeApiKeyInterceptor({ keys: [{ key: BENCH_API_KEY, principal: { id: 'bench' } }] }),
      makeMetricsInterceptor(),
    ],
    operations: [
      {
        name: 'echo',
        method: 'POST',
        path: '/echo',
        input: ECHO_SCHEMA,
        output: ECHO_SCHEMA,
        handler: async (input: unknown) => input,
      },
    ],
  });
  const registry = makeServiceRegistry({
    host: { name: 'bench', version: '1' },
    services: [echo],
    logger: createLogger({ name: 'bench', level: 'silent' }),
  });
  return express().use(makeServiceRouter(registry, { logger: createLogger({ name: 'bench', level: 'silent' }) }));
}

function bareApp(): express.Express {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(ECHO_SCHEMA);
  const validateOutput = ajv.compile({ ...ECHO_SCHEMA, $id: 'output' });
  const app = express();
  app.post('/echo', express.json(), (req, res) => {
    if (req.headers['x-api-key'] !== BENCH_API_KEY) {
      res.status(401).json({ success: false });
      return;
    }
    if (!validate(req.body)) {
      res.status(400).json({ success: false, errors: validate.errors });
      return;
    }
    const output: unknown = req.body;
    if (!validateOutput(output)) {
      res.status(500).json({ success: false });
      return;
    }
    res.json(successEnvelope(output));
  });
  return app;
}

serveOverIpc(async () => {
  const app = process.argv[2] === 'bare' ? bareApp() : registryApp();
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
