#!/usr/bin/env node
// fw-query-host --config FILE (npm run query-host -- … in the checkout)
import { startFromCommandLine } from './main-cli';

startFromCommandLine(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) }).then(
  (result) => {
    if (typeof result === 'number') process.exit(result);
  },
  (err: unknown) => {
    console.error(
      `query-host: cannot start, unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    process.exit(1);
  },
);
