/**
 * Cron triggers of a processSpec: a safe unique name, an expression croner accepts, an IANA time
 * zone, a root process of the processSpec, and args whose values have the process's field types.
 */
import { Cron } from 'croner';
import { CRON_NAME, TENANT, valueMatchesType, type CronTriggerSpec, type ProcessSpecProcess } from './process-spec';
import { isObject } from './validate-structure';

const CRON_KEYS = new Set(['name', 'cronExpression', 'timezone', 'processType', 'args', 'tenant']);

export function isValidTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The reason croner refuses an expression, or undefined when it is valid. */
export function cronProblem(expression: string, timezone: string): string | undefined {
  try {
    // paused: only parse; a running job would keep the generator's process alive.
    const job = new Cron(expression, { timezone, paused: true });
    job.stop();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function checkArgs(args: Record<string, unknown>, process: ProcessSpecProcess, at: string, problems: string[]): void {
  for (const [name, value] of Object.entries(args)) {
    const type = process.fields[name];
    if (type === undefined)
      problems.push(
        `${at}.args.${name}: '${process.processType}' has no field ${name} (fields: ${Object.keys(process.fields).join(', ') || 'none'})`,
      );
    else if (!valueMatchesType(type, value))
      problems.push(`${at}.args.${name}: ${JSON.stringify(value)} is not a ${type}`);
  }
}

function checkTrigger(
  raw: unknown,
  at: string,
  byType: Map<string, ProcessSpecProcess>,
  children: Set<string>,
  problems: string[],
): CronTriggerSpec | undefined {
  if (!isObject(raw)) {
    problems.push(`${at}: must be an object`);
    return undefined;
  }
  for (const key of Object.keys(raw))
    if (!CRON_KEYS.has(key)) problems.push(`${at}.${key}: unknown property (known: ${[...CRON_KEYS].join(', ')})`);
  const name = typeof raw.name === 'string' ? raw.name : '';
  if (!CRON_NAME.test(name)) problems.push(`${at}.name: ${JSON.stringify(raw.name ?? null)} is not a safe name`);
  const timezone = raw.timezone === undefined ? 'UTC' : raw.timezone;
  const zoneOk = typeof timezone === 'string' && isValidTimezone(timezone);
  if (!zoneOk)
    problems.push(`${at}.timezone: ${JSON.stringify(timezone)} is not an IANA time zone (like Europe/Paris or UTC)`);
  const expression = typeof raw.cronExpression === 'string' ? raw.cronExpression : '';
  const cron = cronProblem(expression, zoneOk ? (timezone as string) : 'UTC');
  if (cron)
    problems.push(
      `${at}.cronExpression: ${JSON.stringify(raw.cronExpression ?? null)} is not a valid cron expression (${cron})`,
    );
  const processType = typeof raw.processType === 'string' ? raw.processType : '';
  const process = byType.get(processType);
  if (!process) problems.push(`${at}.processType: '${processType}' is not a process of this spec (dangling reference)`);
  else if (children.has(processType))
    problems.push(`${at}.processType: '${processType}' is a child process; a cron trigger starts a root process`);
  const tenant = raw.tenant === undefined ? 'default' : raw.tenant;
  if (typeof tenant !== 'string' || !TENANT.test(tenant))
    problems.push(`${at}.tenant: ${JSON.stringify(tenant)} is not a valid tenant`);
  const args = raw.args === undefined ? {} : raw.args;
  if (!isObject(args)) problems.push(`${at}.args: must be an object`);
  else if (process) checkArgs(args, process, at, problems);
  return {
    name,
    cronExpression: expression,
    timezone: String(timezone),
    processType,
    args: isObject(args) ? args : {},
    tenant: String(tenant),
  };
}

/** Appends the problems of `raw` (the processSpec's cronTriggers) and returns the normalised triggers. */
export function checkCronTriggers(
  raw: unknown,
  processes: readonly ProcessSpecProcess[],
  problems: string[],
): CronTriggerSpec[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push('cronTriggers: must be an array');
    return [];
  }
  const byType = new Map(processes.map((p) => [p.processType, p]));
  const children = new Set(processes.flatMap((p) => p.children));
  const triggers = raw
    .map((t, i) => checkTrigger(t, `cronTriggers[${i}]`, byType, children, problems))
    .filter((t): t is CronTriggerSpec => t !== undefined);
  const names = triggers.map((t) => t.name);
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i) problems.push(`cronTriggers[${i}].name: '${n}' is used twice`);
  });
  return triggers;
}
