#!/usr/bin/env node
// fw-migrate (npm run migrate -- … in the checkout): applies the framework's schema and exits.
import { migrateMain } from './migrate-cli';

migrateMain(
  process.argv.slice(2),
  (line) => console.log(line),
  (line) => console.error(line),
).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`fw-migrate: unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
