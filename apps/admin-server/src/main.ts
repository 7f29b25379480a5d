#!/usr/bin/env node
// fw-admin-server (npm run admin-server -- … in the checkout; npm start = --profile dev)
import { startAdminServer } from './main-cli';

startAdminServer(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) }).then(
  (result) => {
    if (typeof result === 'number') process.exit(result);
  },
  (err: unknown) => {
    console.error(`admin-server: cannot start, unexpected error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
