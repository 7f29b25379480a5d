// Entry point: npm run bench -- <name> [options]
import { benchMain } from './bench-main';

benchMain(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) }).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`bench: unexpected failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
