/**
 * Validation of process definitions read from a source (JSON file, array or database row).
 */
import { ConfigError } from '@fw/core';
import { PredecessorArgs, type ProcessDef } from '@fw/process-api';

const MODES: readonly string[] = Object.values(PredecessorArgs);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(raw: Record<string, unknown>, key: string, where: string): string | null {
  const value = raw[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`${where}: '${key}' must be a non-empty string`);
  return value;
}

/**
 * Checks one raw definition and returns it normalised (config copied, `predecessorArgs`
 * defaulted to BOTH). Throws a {@link ConfigError} naming `where` and the field.
 *
 * @example
 * const def = parseProcessDef({ processType: 'import', leaf: true }, 'defs.json[0]');
 */
export function parseProcessDef(raw: unknown, where: string): ProcessDef {
  if (!isRecord(raw)) throw new ConfigError(`${where}: a process definition must be an object`);
  const processType = raw.processType;
  if (typeof processType !== 'string' || processType.trim() === '') throw new ConfigError(`${where}: 'processType' must be a non-empty string`);
  const at = `${where} (${processType})`;
  if (typeof raw.leaf !== 'boolean') throw new ConfigError(`${at}: 'leaf' must be true or false`);
  const mode = raw.predecessorArgs ?? PredecessorArgs.BOTH;
  if (typeof mode !== 'string' || !MODES.includes(mode)) throw new ConfigError(`${at}: 'predecessorArgs' must be one of ${MODES.join(', ')}`);
  const config: Record<string, string> = {};
  if (raw.config !== undefined && raw.config !== null) {
    if (!isRecord(raw.config)) throw new ConfigError(`${at}: 'config' must be an object of strings`);
    for (const [k, v] of Object.entries(raw.config)) {
      if (typeof v !== 'string') throw new ConfigError(`${at}: config '${k}' must be a string`);
      config[k] = v;
    }
  }
  return {
    processType,
    leaf: raw.leaf,
    parentProcessType: optionalString(raw, 'parentProcessType', at),
    predecessorProcessType: optionalString(raw, 'predecessorProcessType', at),
    predecessorArgs: mode as ProcessDef['predecessorArgs'],
    config,
  };
}

/** A deep-enough copy of a definition (its config map is copied), so callers cannot mutate a source. */
export function copyProcessDef(def: ProcessDef): ProcessDef {
  return { ...def, config: { ...(def.config ?? {}) } };
}

/** Indexes definitions by type; a duplicate type fails with a {@link ConfigError}. */
export function indexProcessDefs(defs: readonly ProcessDef[], source: string): Map<string, ProcessDef> {
  const byType = new Map<string, ProcessDef>();
  for (const def of defs) {
    if (byType.has(def.processType)) throw new ConfigError(`${source}: process type '${def.processType}' is defined twice`);
    byType.set(def.processType, def);
  }
  return byType;
}

/** Sorted copies of the definitions whose predecessor is `processType`. */
export function successorsOf(byType: ReadonlyMap<string, ProcessDef>, processType: string): ProcessDef[] {
  return [...byType.values()]
    .filter((d) => d.predecessorProcessType === processType)
    .sort((a, b) => a.processType.localeCompare(b.processType))
    .map(copyProcessDef);
}

/** Sorted copies of every definition. */
export function sortedDefs(byType: ReadonlyMap<string, ProcessDef>): ProcessDef[] {
  return [...byType.values()].sort((a, b) => a.processType.localeCompare(b.processType)).map(copyProcessDef);
}
