/**
 * The `fw.process.outbox.*` properties as a typed options object, with their defaults, and a reader for flat property maps and environments.
 *
 * @example
 * const outbox = outboxOptionsFromProperties({ 'fw.process.outbox.enabled': 'true', 'fw.process.outbox.lock-seconds': '60' });
 * // { enabled: true, runDispatcher: true, pollIntervalMillis: 1000, lockSeconds: 60, maxAttempts: 5, workerId: '<host>:<pid>' }
 * outboxOptionsFromProperties(process.env); // FW_PROCESS_OUTBOX_ENABLED=true, FW_PROCESS_OUTBOX_LOCK_SECONDS=60, ...
 */
import { ConfigError } from '@fw/core';
import { hostname } from 'node:os';

/** The outbox properties. Every field has a default (see {@link resolveOutboxOptions}). */
export interface OutboxOptions {
  /** `fw.process.outbox.enabled` (default false): write commands to the outbox instead of running them inline. */
  enabled: boolean;
  /** `fw.process.outbox.run-dispatcher` (default true): run the draining poller on this instance. */
  runDispatcher: boolean;
  /** `fw.process.outbox.poll-interval-millis` (default 1000): idle poll interval. */
  pollIntervalMillis: number;
  /** `fw.process.outbox.lock-seconds` (default 300): lease of a claimed command (fractions allowed). */
  lockSeconds: number;
  /** `fw.process.outbox.max-attempts` (default 5): attempts before a command is DEAD. */
  maxAttempts: number;
  /** `fw.process.outbox.worker-id` (default `<host name>:<pid>`): claimant identity stored in `locked_by`. */
  workerId: string;
  /**
   * `fw.process.outbox.done-retention-millis` (optional): DONE commands (and their receipts)
   * finished longer ago are deleted by the dispatchers; 0 keeps them for ever. Absent: 7 days, applied by the dispatcher (so the other options resolve unchanged).
   */
  doneRetentionMillis?: number;
}

/** Defaults of the outbox properties (see ../../README.md#properties). */
export const OUTBOX_DEFAULTS: Readonly<Omit<OutboxOptions, 'workerId'>> = {
  enabled: false,
  runDispatcher: true,
  pollIntervalMillis: 1000,
  lockSeconds: 300,
  maxAttempts: 5,
};

/** The property names, by option. */
export const OUTBOX_PROPERTY_KEYS: Readonly<Record<keyof OutboxOptions, string>> = {
  enabled: 'fw.process.outbox.enabled',
  runDispatcher: 'fw.process.outbox.run-dispatcher',
  pollIntervalMillis: 'fw.process.outbox.poll-interval-millis',
  lockSeconds: 'fw.process.outbox.lock-seconds',
  maxAttempts: 'fw.process.outbox.max-attempts',
  workerId: 'fw.process.outbox.worker-id',
  doneRetentionMillis: 'fw.process.outbox.done-retention-millis',
};

/** `<host name>:<pid>`. */
export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}`;
}

function check(name: string, ok: boolean, value: unknown, what: string): void {
  if (!ok) throw new ConfigError(`${name} must be ${what} (got ${JSON.stringify(value)})`);
}

/** Fills the defaults and checks the values (`ConfigError` naming the property). */
export function resolveOutboxOptions(options: Partial<OutboxOptions> = {}): OutboxOptions {
  const resolved: OutboxOptions = { ...OUTBOX_DEFAULTS, workerId: defaultWorkerId(), ...stripUndefined(options) };
  const k = OUTBOX_PROPERTY_KEYS;
  check(k.enabled, typeof resolved.enabled === 'boolean', resolved.enabled, 'true or false');
  check(k.runDispatcher, typeof resolved.runDispatcher === 'boolean', resolved.runDispatcher, 'true or false');
  check(
    k.pollIntervalMillis,
    Number.isFinite(resolved.pollIntervalMillis) && resolved.pollIntervalMillis >= 1,
    resolved.pollIntervalMillis,
    'a number of milliseconds >= 1',
  );
  check(
    k.lockSeconds,
    Number.isFinite(resolved.lockSeconds) && resolved.lockSeconds > 0,
    resolved.lockSeconds,
    'a positive number of seconds',
  );
  check(
    k.maxAttempts,
    Number.isInteger(resolved.maxAttempts) && resolved.maxAttempts >= 1,
    resolved.maxAttempts,
    'an integer >= 1',
  );
  check(
    k.workerId,
    typeof resolved.workerId === 'string' && resolved.workerId.trim() !== '',
    resolved.workerId,
    'a non-empty string',
  );
  const retention = resolved.doneRetentionMillis;
  check(
    k.doneRetentionMillis,
    retention === undefined || (Number.isFinite(retention) && retention >= 0),
    retention,
    'a number of milliseconds >= 0 (0: keep DONE commands)',
  );
  return resolved;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** `fw.process.outbox.lock-seconds` → `FW_PROCESS_OUTBOX_LOCK_SECONDS`. */
export function environmentKeyOf(property: string): string {
  return property.toUpperCase().replace(/[.-]/g, '_');
}

function parseBoolean(name: string, raw: string): boolean {
  const v = raw.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new ConfigError(`${name} must be true or false (got '${raw}')`);
}

function parseNumber(name: string, raw: string): number {
  const v = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(v)) throw new ConfigError(`${name} must be a number (got '${raw}')`);
  return v;
}

/**
 * Reads the `fw.process.outbox.*` keys from a flat map: property names (`fw.process.outbox.enabled`)
 * or environment names (`FW_PROCESS_OUTBOX_ENABLED`); a property name wins over its environment
 * name. Missing keys take the defaults; bad values throw `ConfigError` naming the key.
 */
export function outboxOptionsFromProperties(properties: Readonly<Record<string, string | undefined>>): OutboxOptions {
  const read = (option: keyof OutboxOptions): { name: string; raw: string } | undefined => {
    const property = OUTBOX_PROPERTY_KEYS[option];
    const env = environmentKeyOf(property);
    const raw = properties[property] ?? properties[env];
    if (raw === undefined || raw.trim() === '') return undefined;
    return { name: properties[property] !== undefined ? property : env, raw };
  };
  const options: Partial<OutboxOptions> = {};
  const bool = (option: 'enabled' | 'runDispatcher') => {
    const v = read(option);
    if (v) options[option] = parseBoolean(v.name, v.raw);
  };
  const num = (option: 'pollIntervalMillis' | 'lockSeconds' | 'maxAttempts' | 'doneRetentionMillis') => {
    const v = read(option);
    if (v) options[option] = parseNumber(v.name, v.raw);
  };
  bool('enabled');
  bool('runDispatcher');
  num('pollIntervalMillis');
  num('lockSeconds');
  num('maxAttempts');
  num('doneRetentionMillis');
  const workerId = read('workerId');
  if (workerId) options.workerId = workerId.raw.trim();
  return resolveOutboxOptions(options);
}
