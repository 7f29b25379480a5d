#!/usr/bin/env node
// The deployable's command: `{{applicationKebab}} worker | serve | seed` (see the README).
const { main } = require('{{scope}}/{{applicationKebab}}-service');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`{{applicationKebab}}: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
