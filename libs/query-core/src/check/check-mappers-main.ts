#!/usr/bin/env node
// fw-check-mappers: tells, per statement, whether a folder of MyBatis mapper XML loads (see check-mappers-cli.ts).
import { checkMappersMain } from './check-mappers-cli';

checkMappersMain(process.argv.slice(2), {
  out: (line) => console.log(line),
  error: (line) => console.error(line),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`fw-check-mappers: unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 2;
  },
);
