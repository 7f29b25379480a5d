#!/usr/bin/env node
// fw-admin-server (npm run admin-server -- … in the checkout; npm start = --profile dev)
import { registerInstrumentationsFromEnv } from '@fw/telemetry-node';

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

async function main(): Promise<void> {
  // The instrumentations of OTEL_NODE_ENABLED_INSTRUMENTATIONS patch pg as it is required: they
  // are registered before the server's modules (and pg with them) load, hence the import() after.
  try {
    await registerInstrumentationsFromEnv();
  } catch (err) {
    console.error(`admin-server: cannot start: ${message(err)}`);
    process.exit(1);
  }
  const { startAdminServer } = await import('./main-cli.js');
  const result = await startAdminServer(process.argv.slice(2), {
    out: (l) => console.log(l),
    err: (l) => console.error(l),
  });
  if (typeof result === 'number') process.exit(result);
}

main().catch((err: unknown) => {
  console.error(`admin-server: cannot start, unexpected error: ${message(err)}`);
  process.exit(1);
});
