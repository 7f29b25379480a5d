/**
 * The `json` definition source (the default): definitions from a JSON file or an in-memory array.
 * The file holds an array of {@link ProcessDef} (or `{ "definitions": [...] }`) and is read once,
 * when the configurator is made; problems fail fast with a {@link ConfigError}.
 *
 * @example
 * const configurator = makeJsonProcessConfigurator({ file: 'config/process-definitions.json' });
 * const def = await configurator.findByName('import');
 */
import { ConfigError } from '@fw/core';
import type { ProcessConfigurator, ProcessDef } from '@fw/process-api';
import { readFileSync } from 'node:fs';
import { copyProcessDef, indexProcessDefs, parseProcessDef, sortedDefs, successorsOf } from './process-def-validation';

export interface JsonProcessConfiguratorOptions {
  /** A JSON file: an array of definitions or `{ "definitions": [...] }`. */
  file?: string;
  /** Definitions given directly (used when `file` is absent). */
  definitions?: readonly unknown[];
}

function readDefinitionsFile(file: string): unknown[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`Cannot read process definitions file ${file}: ${(e as Error).message}`, { cause: e });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`Process definitions file ${file} is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  if (Array.isArray(parsed)) return parsed;
  if (
    typeof parsed === 'object' &&
    parsed !== null &&
    Array.isArray((parsed as { definitions?: unknown }).definitions)
  ) {
    return (parsed as { definitions: unknown[] }).definitions;
  }
  throw new ConfigError(
    `Process definitions file ${file} must hold an array of definitions or { "definitions": [...] }`,
  );
}

/** Makes the read-only `json` configurator (its `invalidate` is a no-op). */
export function makeJsonProcessConfigurator(options: JsonProcessConfiguratorOptions): ProcessConfigurator {
  const source = options.file ?? 'process definitions';
  const raw = options.file !== undefined ? readDefinitionsFile(options.file) : [...(options.definitions ?? [])];
  const byType = indexProcessDefs(
    raw.map((d, i) => parseProcessDef(d, `${source}[${i}]`)),
    source,
  );
  return {
    async findByName(processType: string): Promise<ProcessDef | undefined> {
      const def = byType.get(processType);
      return def ? copyProcessDef(def) : undefined;
    },
    async findSuccessors(processType: string): Promise<ProcessDef[]> {
      return successorsOf(byType, processType);
    },
    async list(): Promise<ProcessDef[]> {
      return sortedDefs(byType);
    },
    invalidate(): void {
      // Nothing cached beyond the file read at start; definitions are fixed for the JSON source.
    },
  };
}
