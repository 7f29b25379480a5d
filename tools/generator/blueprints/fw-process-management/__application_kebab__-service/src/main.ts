#!/usr/bin/env node
// {{application}}'s command: `worker` (work the queue), `serve` (HTTP entry + worker), `seed`
// (definitions and disabled cron triggers into the database). Settings come from the environment:
//   PROCESS_DATABASE_URL (postgres://… or pglite:<folder>), PROCESS_DATABASE_USERNAME, PROCESS_DATABASE_PASSWORD,
//   PORT (serve, default 8080), CONCURRENCY (default 8), RECOVERY_SECONDS (default 60),
//   PROCESS_MANAGEMENT_API_KEY (serve: read on every request).{{#registerInServiceRegistry}}
//   SERVICE_REGISTRY_URL (default {{serviceRegistryUrl}}), PUBLIC_BASE_URL (what the registry is told).{{/registerInServiceRegistry}}
import { createDatabase, createLogger } from '@fw/core';
import express from 'express';
import { seedCronTriggers, seedDefinitions } from '{{scope}}/{{applicationKebab}}-configurations';
import { makeHost } from './host';
import { makeProcessRoutes } from './http';
{{#registerInServiceRegistry}}
import { startRegistration } from './registry';
{{/registerInServiceRegistry}}

const USAGE = 'usage: {{applicationKebab}} worker | serve | seed   (environment: PROCESS_DATABASE_URL, …; see the README)';

function database() {
  const url = process.env.PROCESS_DATABASE_URL;
  if (!url) throw new Error('PROCESS_DATABASE_URL is not set (postgres://host:5432/db, or pglite:./.data/db for a local try)');
  return createDatabase({ url, username: process.env.PROCESS_DATABASE_USERNAME, password: process.env.PROCESS_DATABASE_PASSWORD });
}

async function seed(): Promise<void> {
  const db = database();
  try {
    const defs = await seedDefinitions(db);
    const crons = await seedCronTriggers(db);
    console.log(`definitions: ${defs.inserted.length} seeded, ${defs.kept.length} kept as they are; cron triggers: ${crons.inserted.length} seeded (disabled), ${crons.kept.length} kept`);
  } finally {
    await db.close();
  }
}

function work(serve: boolean): void {
  const logger = createLogger({ name: '{{applicationKebab}}' });
  const host = makeHost({ database: database(), concurrency: Number(process.env.CONCURRENCY ?? '8'), recoverySeconds: Number(process.env.RECOVERY_SECONDS ?? '60') });
  host.start();
  host.stopOnSignals({ drainMillis: Number(process.env.DRAIN_MILLIS ?? '20000') });
  if (serve) {
    const port = Number(process.env.PORT ?? '8080');
    const server = express().use(makeProcessRoutes(host.manager)).listen(port, () => logger.info(`{{applicationKebab}} listening on ${port}`));
{{#registerInServiceRegistry}}
    const stopRegistration = startRegistration({ baseUrl: process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${port}`, log: (line) => logger.info(line) });
    process.once('SIGTERM', stopRegistration);
    process.once('SIGINT', stopRegistration);
{{/registerInServiceRegistry}}
    process.once('SIGTERM', () => server.close());
    process.once('SIGINT', () => server.close());
  }
  logger.info(`{{applicationKebab}} worker ${process.pid} started`);
}

export async function main(argv: string[]): Promise<number> {
  const command = argv[0];
  if (command === 'seed') await seed();
  else if (command === 'worker' || command === 'serve') work(command === 'serve');
  else {
    console.error(USAGE);
    return command === '--help' || command === '-h' ? 0 : 2;
  }
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(`{{applicationKebab}}: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}
