/**
 * Runs a short ES-module script in a Node process of its own, from this package's folder (so it
 * resolves this package's dependencies), and resolves with what it printed. openapi-typescript and
 * Redocly's openapi-core load ES-module-only code that Jest's CommonJS module system cannot run.
 *
 * @example
 * const out = await runEsmScript(`console.log(process.argv[1])`, ['hello']);   // 'hello\n'
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';

const PACKAGE_DIR = path.resolve(__dirname, '..');

/** `node --input-type=module -e script …args`; rejects with its stderr when it fails. */
export function runEsmScript(script: string, args: readonly string[]): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script, ...args],
      { cwd: PACKAGE_DIR, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (err, out, errOut) => {
        if (err) reject(new Error(`the script failed: ${errOut || err.message}`));
        else resolve(out);
      },
    );
  });
}
