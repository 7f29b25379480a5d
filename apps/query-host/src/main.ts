#!/usr/bin/env node
// fw-query-host --config FILE (npm run query-host -- … in the checkout)
import { registerInstrumentationsFromEnv } from '@fw/telemetry-node';

async function main(): Promise<void> {
  // The instrumentations of OTEL_NODE_ENABLED_INSTRUMENTATIONS patch pg as it is required: they
  // are registered before the host's modules (and pg with them) load, hence the import() after.
  // Every query here answers a request and no span surrounds it: each is recorded as a trace of
  // its own rather than only inside a parent span.
  try {
    await registerInstrumentationsFromEnv({ requireParentSpan: false });
  } catch (err) {
    console.error(`query-host: cannot start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  const { startFromCommandLine } = await import('./main-cli.js');
  const result = await startFromCommandLine(process.argv.slice(2), {
    out: (l) => console.log(l),
    err: (l) => console.error(l),
  });
  if (typeof result === 'number') process.exit(result);
}

main().catch((err: unknown) => {
  console.error(
    `query-host: cannot start, unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
  );
  process.exit(1);
});
