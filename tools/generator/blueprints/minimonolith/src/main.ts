#!/usr/bin/env node
// `npm start`: runs {{monolith}} with the settings of the environment (see README) until SIGINT or
// SIGTERM, then closes it cleanly (in-flight requests finish, the database is closed).
import { createMonolith } from './host';

async function main(): Promise<void> {
  const monolith = await createMonolith();
  const url = await monolith.listen();
  console.log(`{{monolithKebab}}: listening on ${url} (profile ${monolith.config.profile})`);
  console.log(`{{monolithKebab}}: admin UI ${url}/fw/admin/`);
{{#enableDbConsole}}
  if (monolith.config.profile === 'dev') console.log(`{{monolithKebab}}: database console ${url}/fw/db-console`);
{{/enableDbConsole}}
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`{{monolithKebab}}: ${signal}, stopping`);
    monolith.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(`{{monolithKebab}}: could not start: ${(err as Error).message}`);
  process.exit(1);
});
