/**
 * Redocly's `recommended` rule set over a served document, through `@redocly/openapi-core`'s
 * lint API, in a Node process of its own (esm-script.ts) that answers with the problems as JSON.
 *
 * @example
 * const problems = await lintDocument(doc);
 * problems.filter((p) => p.severity === 'error');   // [] when the document passes
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { OpenApiJson } from './contract-hosts';
import { runEsmScript } from './esm-script';

/** One problem Redocly reports: its rule, severity, message and where (a JSON pointer). */
export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  pointer: string;
}

/** Run with the document's path as its argument; prints the problems as one JSON array. */
const LINT_SCRIPT = `
import { createConfig, lint } from '@redocly/openapi-core';
const config = await createConfig({ extends: ['recommended'] });
const problems = await lint({ ref: process.argv[1], config });
console.log(JSON.stringify(problems.map((p) => ({
  ruleId: p.ruleId,
  severity: p.severity,
  message: p.message,
  pointer: p.location[0]?.pointer ?? '',
}))));
`;

/** Lints `document` with the recommended rules; resolves with every problem (errors and warnings). */
export async function lintDocument(document: OpenApiJson): Promise<LintProblem[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-redocly-'));
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  try {
    return JSON.parse(await runEsmScript(LINT_SCRIPT, [file])) as LintProblem[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
