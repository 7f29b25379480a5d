#!/usr/bin/env node
// Starts {{service}}: reads the settings from the environment (README, "Configuration"), starts the
// host and stops it cleanly on SIGTERM/SIGINT (stop listening, finish open requests, close the store).
import { createLogger, installGracefulShutdown } from '@fw/core';
import { start{{servicePascal}}Host } from './host';
import { readSettings } from './settings';

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const logger = createLogger({ name: '{{serviceKebab}}' });
  const host = await start{{servicePascal}}Host(readSettings(env));
  installGracefulShutdown({ logger, steps: [() => host.close()] });
  logger.info({ url: host.url }, '{{serviceKebab}} listening');
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(`{{serviceKebab}}: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
