import { migrateMain } from './migrate-cli';

migrateMain(process.argv.slice(2), (line) => console.log(line), (line) => console.error(line)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`migrate: unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
