/**
 * Runs @seriousme/openapi-schema-validator (an ES module, which this CommonJS test build cannot
 * load) in a node process of its own, on a document written to a temporary file.
 *
 * @example
 * expect(validateOpenApi(buildOpenApiDocument())).toEqual({ valid: true });
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export function validateOpenApi(document: unknown): unknown {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const script = `import { Validator } from '@seriousme/openapi-schema-validator';
const result = await new Validator().validate(${JSON.stringify(file)});
console.log(JSON.stringify(result));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: path.resolve(__dirname, '..'),
      encoding: 'utf8',
    });
    return JSON.parse(out) as unknown;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
