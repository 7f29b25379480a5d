#!/usr/bin/env node
// Serves the {{namespace}} query module over HTTP: `POST /q/{{namespaceKebab}}-items`. Settings
// come from the environment:
//   QUERY_DATABASE_URL   postgres://… or pglite:<folder> (default pglite:memory:, seeded at start)
//   QUERY_DATABASE_USERNAME, QUERY_DATABASE_PASSWORD   credentials, winning over the URL's
//   HOST, PORT           where to listen (default 127.0.0.1:8081; PORT=0 picks a free port){{#security}}
//   QUERY_JWT_SECRET     HS256 secret of the bearer tokens, at least 32 characters (required)
//   QUERY_JWT_ISSUER, QUERY_JWT_AUDIENCE   checked when set{{/security}}
// It prints `listening on http://…` once it answers, so scripts (and integration tests) can wait for it.
import type { AddressInfo } from 'node:net';
import { createLogger, installGracefulShutdown } from '@fw/core';
import { makeQueryApp } from './app';
import { startQueryModule } from './query-module';

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const logger = createLogger({ name: '{{namespaceKebab}}-query' });
{{#security}}
  const secret = env.QUERY_JWT_SECRET;
  if (!secret) throw new Error('QUERY_JWT_SECRET is not set (the HS256 secret of the bearer tokens, at least 32 characters)');
{{/security}}
  const queryModule = await startQueryModule({ databaseUrl: env.QUERY_DATABASE_URL, username: env.QUERY_DATABASE_USERNAME, password: env.QUERY_DATABASE_PASSWORD, logger });
  const app = makeQueryApp({
    queryService: queryModule.queryService,
    logger,
{{#security}}
    auth: { secret, issuer: env.QUERY_JWT_ISSUER || undefined, audience: env.QUERY_JWT_AUDIENCE || undefined },
{{/security}}
  });
  const server = app.listen(Number(env.PORT ?? '8081'), env.HOST ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { address, port } = server.address() as AddressInfo;
  console.log(`listening on http://${address}:${port}`);
  installGracefulShutdown({ logger, servers: [server], steps: [() => queryModule.close()] });
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(`{{namespaceKebab}}-query: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
