// Hosts the reference {{entity}} service on express, as an fw-service host does (the service
// router with the info endpoints, then the envelope for unknown routes and errors).
import type { AddressInfo } from 'node:net';
import { createLogger } from '@fw/core';
import { makeErrorMiddleware, makeNotFoundHandler } from '@fw/core/http';
import { makeServiceRegistry, makeServiceRouter } from '@fw/service';
import express from 'express';
import { make{{entityPascal}}Service } from './entity-service';
{{#security}}
import { makeJwtInterceptor, type TokenSettings } from '../jwt';
{{/security}}

export interface ReferenceAppOptions {
  /** Default 0: a free port. */
  port?: number;
  host?: string;
{{#security}}
  jwt: TokenSettings;
{{/security}}
}

export interface ReferenceApp {
  url: string;
  close(): Promise<void>;
}

export async function startReferenceApp(options: ReferenceAppOptions{{^security}} = {}{{/security}}): Promise<ReferenceApp> {
  const logger = createLogger({ name: '{{entityKebab}}-reference' });
  const registry = makeServiceRegistry({
    host: { name: '{{appKebab}}-reference', version: '{{appVersion}}' },
    services: [make{{entityPascal}}Service({{#security}}[makeJwtInterceptor(options.jwt)]{{/security}})],
    logger,
  });
  const app = express();
  app.use(makeServiceRouter(registry, { logger }));
  app.use(makeNotFoundHandler(), makeErrorMiddleware(logger));
  const server = app.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
