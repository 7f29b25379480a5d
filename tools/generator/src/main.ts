#!/usr/bin/env node
// fw-gen (npm run gen -- … in the checkout): the blueprint code generator.
import { runCli } from './cli/cli';

// `npm run gen -- …` in the checkout runs this from the workspace root; relative paths (-o, -f,
// the destination) should mean the folder the user typed the command in, which npm gives as INIT_CWD.
const cwd = process.env.npm_lifecycle_event === 'gen' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();

runCli(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => console.error(line), cwd }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`fw-gen: unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
