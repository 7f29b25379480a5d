import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { makeBlueprintCatalog, type BlueprintCatalog } from '../src/blueprint/catalog';
import { DEFAULT_CONFIG, type GeneratorConfig } from '../src/config/generator-config';
import { makeGenerator, type Generator } from '../src/processors/generator';

export const FIXTURES = path.join(__dirname, 'fixtures/blueprints');

const made: string[] = [];

/** A temporary folder removed after the test file. */
export function tempDir(prefix = 'fw-gen-test-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Every file under `dir` with its bytes (base64), for exact comparisons; missing dir → {}. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const entry of readdirSync(d).sort()) {
      const full = path.join(d, entry);
      const r = rel ? `${rel}/${entry}` : entry;
      if (statSync(full).isDirectory()) walk(full, r);
      else out[r] = readFileSync(full).toString('base64');
    }
  };
  try {
    walk(dir, '');
  } catch {
    return {};
  }
  return out;
}

export function fixtureCatalog(): BlueprintCatalog {
  return makeBlueprintCatalog([FIXTURES], false);
}

export function testGenerator(
  config: Partial<GeneratorConfig> = {},
  lines: string[] = [],
  catalog = fixtureCatalog(),
): Generator {
  return makeGenerator({ catalog, config: { ...DEFAULT_CONFIG, ...config }, progress: (l) => lines.push(l) });
}
