/**
 * Validation of process definitions read from a source (JSON file, array or database row).
 */
import { ConfigError } from '@fw/core';
import {
  isoDurationMillis,
  PredecessorArgs,
  type HistoryRetention,
  type ProcessDef,
  type RetryPolicy,
} from '@fw/process-api';
import { checkInputSchema } from '../manager/input-validation';
import { parseConcurrency, parsePriority, parseRateLimit } from './work-limits-validation';

const MODES: readonly string[] = Object.values(PredecessorArgs);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(raw: Record<string, unknown>, key: string, where: string): string | null {
  const value = raw[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.trim() === '')
    throw new ConfigError(`${where}: '${key}' must be a non-empty string`);
  return value;
}

/** True when `text` holds a C0 control character or DEL. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
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
  if (typeof processType !== 'string' || processType.trim() === '')
    throw new ConfigError(`${where}: 'processType' must be a non-empty string`);
  if (processType.trim() !== processType)
    throw new ConfigError(
      `${where}: 'processType' must not start or end with blanks (got ${JSON.stringify(processType)})`,
    );
  // Control characters are kept out so that a page of child results can separate types with one.
  if (hasControlCharacter(processType))
    throw new ConfigError(
      `${where}: 'processType' must not hold control characters (got ${JSON.stringify(processType)})`,
    );
  const at = `${where} (${processType})`;
  if (typeof raw.leaf !== 'boolean') throw new ConfigError(`${at}: 'leaf' must be true or false`);
  const mode = raw.predecessorArgs ?? PredecessorArgs.BOTH;
  if (typeof mode !== 'string' || !MODES.includes(mode))
    throw new ConfigError(`${at}: 'predecessorArgs' must be one of ${MODES.join(', ')}`);
  const config: Record<string, string> = {};
  if (raw.config !== undefined && raw.config !== null) {
    if (!isRecord(raw.config)) throw new ConfigError(`${at}: 'config' must be an object of strings`);
    for (const [k, v] of Object.entries(raw.config)) {
      if (typeof v !== 'string') throw new ConfigError(`${at}: config '${k}' must be a string`);
      config[k] = v;
    }
  }
  const concurrency = parseConcurrency(raw.concurrency, at);
  const priority = parsePriority(raw.priority, at);
  const rateLimit = parseRateLimit(raw.rateLimit, at);
  const retention = parseRetention(raw.retention, at);
  return {
    processType,
    leaf: raw.leaf,
    parentProcessType: optionalString(raw, 'parentProcessType', at),
    predecessorProcessType: optionalString(raw, 'predecessorProcessType', at),
    predecessorArgs: mode as ProcessDef['predecessorArgs'],
    config,
    inputSchema: checkInputSchema(raw.inputSchema, at),
    retry: parseRetry(raw.retry, at),
    // The fairness fields only when set, so definitions without them read as before.
    ...(concurrency === null ? {} : { concurrency }),
    ...(priority === null ? {} : { priority }),
    ...(rateLimit === null ? {} : { rateLimit }),
    ...(retention === null ? {} : { retention }),
  };
}

/** `retention: { succeeded?, failed? }` (ISO-8601 durations of at least a second), or null when absent. */
function parseRetention(raw: unknown, at: string): HistoryRetention | null {
  if (raw === undefined || raw === null) return null;
  if (!isRecord(raw))
    throw new ConfigError(`${at}: 'retention' must be an object { succeeded?, failed? } of ISO-8601 durations`);
  const retention: HistoryRetention = {};
  for (const key of Object.keys(raw)) {
    if (key !== 'succeeded' && key !== 'failed')
      throw new ConfigError(`${at}: 'retention.${key}' is not a field (succeeded, failed)`);
    const value = raw[key];
    if (value === undefined || value === null) continue;
    const millis = typeof value === 'string' ? isoDurationMillis(value) : undefined;
    if (typeof value !== 'string' || millis === undefined || millis < 1000)
      throw new ConfigError(
        `${at}: 'retention.${key}' must be an ISO-8601 duration of at least a second, such as P30D or PT12H`,
      );
    retention[key] = value.trim();
  }
  return retention;
}

function positiveInteger(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
}

/** `retry: { attempts: 1..100, backoff?: { baseMillis, maxMillis } }`, or null when absent. */
function parseRetry(raw: unknown, at: string): RetryPolicy | null {
  if (raw === undefined || raw === null) return null;
  if (!isRecord(raw)) throw new ConfigError(`${at}: 'retry' must be an object { attempts, backoff? }`);
  if (!positiveInteger(raw.attempts, 100))
    throw new ConfigError(`${at}: 'retry.attempts' must be a whole number from 1 to 100`);
  if (raw.backoff === undefined || raw.backoff === null) return { attempts: raw.attempts };
  const b = raw.backoff;
  if (
    !isRecord(b) ||
    !positiveInteger(b.baseMillis, 86_400_000) ||
    !positiveInteger(b.maxMillis, 86_400_000) ||
    b.maxMillis < b.baseMillis
  ) {
    throw new ConfigError(
      `${at}: 'retry.backoff' must be { baseMillis, maxMillis }: whole milliseconds, 1 to 86 400 000, maxMillis at least baseMillis`,
    );
  }
  return { attempts: raw.attempts, backoff: { baseMillis: b.baseMillis, maxMillis: b.maxMillis } };
}

/** A deep-enough copy of a definition (its config map is copied), so callers cannot mutate a source. */
export function copyProcessDef(def: ProcessDef): ProcessDef {
  return { ...def, config: { ...(def.config ?? {}) } };
}

/** Indexes definitions by type; a duplicate type fails with a {@link ConfigError}. */
export function indexProcessDefs(defs: readonly ProcessDef[], source: string): Map<string, ProcessDef> {
  const byType = new Map<string, ProcessDef>();
  for (const def of defs) {
    if (byType.has(def.processType))
      throw new ConfigError(`${source}: process type '${def.processType}' is defined twice`);
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
