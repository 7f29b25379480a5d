// Build step: copies the workspace schema (<root>/migrations/*.sql) into this package's
// migrations/ so the schema travels with the release (`fw-migrate` and the admin server's dev
// profile read it from there once installed).
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.resolve(here, '../../../migrations');
const target = path.resolve(here, '../migrations');
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
const files = readdirSync(source)
  .filter((f) => f.endsWith('.sql'))
  .sort();
for (const file of files) copyFileSync(path.join(source, file), path.join(target, file));
console.log(`copied ${files.length} migrations into ${path.relative(process.cwd(), target) || target}`);
