/**
 * How long finished process trees are kept: a server default for successful runs and a longer one
 * for failed runs, optionally per tenant, and per definition (`retention: { succeeded, failed }`).
 * Durations are ISO-8601 (`P30D`, `PT12H`, `P1W`, `P1DT6H`).
 *
 * @example
 * const settings = retentionSettingsFromEnv(process.env);   // { succeededMillis: 30 days, failedMillis: 90 days, tenants: {} }
 * parseIsoDuration('P1DT12H');                              // 129_600_000
 */
import { ConfigError } from '@fw/core';
import { isoDurationMillis, type ProcessDef } from '@fw/process-api';

/** Default retention of a successful (PROCESSED) tree. */
export const DEFAULT_SUCCEEDED_RETENTION = 'P30D';
/** Default retention of a failed (PROCESSED_WITH_ERRORS) tree: kept longer, it is what gets investigated. */
export const DEFAULT_FAILED_RETENTION = 'P90D';

/** Two retentions in milliseconds. */
export interface RetentionPair {
  succeededMillis: number;
  failedMillis: number;
}

/** The retention that applies when a definition says nothing: server default, then per tenant. */
export interface RetentionSettings extends RetentionPair {
  /** Per tenant, either field may be left out (the server default applies). */
  tenants: Record<string, Partial<RetentionPair>>;
  /** How long the administration API's audit trail is kept (default: as long as failed trees). */
  auditMillis?: number;
}

/**
 * An ISO-8601 duration in milliseconds (a year counts 365 days, a month 30). Throws a ConfigError
 * naming `what` for anything else, and for less than a second (which would remove a tree the moment
 * it finishes: almost certainly a typo).
 */
export function parseIsoDuration(text: string, what = 'duration'): number {
  const millis = isoDurationMillis(text);
  if (millis === undefined)
    throw new ConfigError(`${what} must be an ISO-8601 duration such as P30D, PT12H or P1DT6H (got '${text}')`);
  if (millis < 1000) throw new ConfigError(`${what} must be at least one second (got '${text}')`);
  return millis;
}

/**
 * `PROCESS_HISTORY_RETENTION_TENANTS`: `tenant=SUCCEEDED/FAILED` entries separated by commas, either
 * side may be empty (`acme=P7D/P30D,beta=/P365D`).
 */
function parseTenantRetention(raw: string | undefined): Record<string, Partial<RetentionPair>> {
  const tenants: Record<string, Partial<RetentionPair>> = {};
  if (raw === undefined || raw.trim() === '') return tenants;
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const eq = entry.indexOf('=');
    const tenant = eq > 0 ? entry.slice(0, eq).trim() : '';
    const [succeeded, failed, extra] = (eq > 0 ? entry.slice(eq + 1) : '').split('/');
    if (tenant === '' || extra !== undefined || ((succeeded ?? '').trim() === '' && (failed ?? '').trim() === '')) {
      throw new ConfigError(
        `PROCESS_HISTORY_RETENTION_TENANTS: '${entry}' must be tenant=SUCCEEDED/FAILED (ISO-8601 durations, either may be empty)`,
      );
    }
    const what = `PROCESS_HISTORY_RETENTION_TENANTS (${tenant})`;
    tenants[tenant] = {
      ...(succeeded?.trim() ? { succeededMillis: parseIsoDuration(succeeded, what) } : {}),
      ...(failed?.trim() ? { failedMillis: parseIsoDuration(failed, what) } : {}),
    };
  }
  return tenants;
}

/**
 * `PROCESS_HISTORY_RETENTION` (P30D), `PROCESS_FAILED_RETENTION` (P90D), `PROCESS_HISTORY_RETENTION_TENANTS`,
 * `PROCESS_AUDIT_RETENTION` (the audit trail; default: the failed retention).
 */
export function retentionSettingsFromEnv(env: NodeJS.ProcessEnv): RetentionSettings {
  const failedMillis = parseIsoDuration(
    env.PROCESS_FAILED_RETENTION || DEFAULT_FAILED_RETENTION,
    'PROCESS_FAILED_RETENTION',
  );
  return {
    succeededMillis: parseIsoDuration(
      env.PROCESS_HISTORY_RETENTION || DEFAULT_SUCCEEDED_RETENTION,
      'PROCESS_HISTORY_RETENTION',
    ),
    failedMillis,
    tenants: parseTenantRetention(env.PROCESS_HISTORY_RETENTION_TENANTS),
    auditMillis: env.PROCESS_AUDIT_RETENTION
      ? parseIsoDuration(env.PROCESS_AUDIT_RETENTION, 'PROCESS_AUDIT_RETENTION')
      : failedMillis,
  };
}

/** One rule of the sweep: a definition's or a tenant's own retention (seconds; null: the next level applies). */
export interface RetentionRule {
  key: string;
  succeededSeconds: number | null;
  failedSeconds: number | null;
}

/** The rules the sweep's statement applies: per definition, then per tenant, then the defaults. */
export interface RetentionRules {
  definitions: RetentionRule[];
  tenants: RetentionRule[];
  succeededSeconds: number;
  failedSeconds: number;
  /** The shortest retention of all: no root created later than now minus this can have expired. */
  shortestSeconds: number;
}

const seconds = (millis: number | undefined): number | null => (millis === undefined ? null : millis / 1000);

/** Combines the settings with the definitions' own `retention` (already validated when read). */
export function retentionRulesOf(settings: RetentionSettings, definitions: readonly ProcessDef[]): RetentionRules {
  const defRules: RetentionRule[] = [];
  for (const def of definitions) {
    if (!def.retention) continue;
    const { succeeded, failed } = def.retention;
    defRules.push({
      key: def.processType,
      succeededSeconds: seconds(
        succeeded ? parseIsoDuration(succeeded, `${def.processType}: retention.succeeded`) : undefined,
      ),
      failedSeconds: seconds(failed ? parseIsoDuration(failed, `${def.processType}: retention.failed`) : undefined),
    });
  }
  const tenantRules = Object.entries(settings.tenants).map(([key, pair]) => ({
    key,
    succeededSeconds: seconds(pair.succeededMillis),
    failedSeconds: seconds(pair.failedMillis),
  }));
  const all = [settings.succeededMillis / 1000, settings.failedMillis / 1000];
  for (const rule of [...defRules, ...tenantRules])
    all.push(...[rule.succeededSeconds, rule.failedSeconds].filter((s): s is number => s !== null));
  return {
    definitions: defRules,
    tenants: tenantRules,
    succeededSeconds: settings.succeededMillis / 1000,
    failedSeconds: settings.failedMillis / 1000,
    shortestSeconds: Math.min(...all),
  };
}
