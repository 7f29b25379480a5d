/**
 * Durable crontabs (`fw_crontab`): ProcessCreate schedules per tenant, names unique per tenant.
 * Expressions are validated with croner (six fields, seconds first) in their IANA time zone.
 * After a change, call `CronScheduler.reload()` so the schedule takes effect. A change's
 * `inTransaction` option runs in its transaction (a row that must commit with it).
 *
 * @example
 * const crontabs = makeCrontabStore(database);
 * const tab = await crontabs.add('t1', { name: 'nightly', cronExpression: '0 0 2 * * *', timezone: 'Europe/Berlin',
 *   enabled: true, payload: { processDefName: 'nightly-import', args: {} } });
 * await crontabs.update(tab.id, 't1', { enabled: false });
 */
import type { Database } from '@fw/core';
import { triggerDb } from '../schema/trigger-tables';
import { makeCrontabReader, type CrontabReader } from './crontab-reader';
import { makeCrontabWriter, type CrontabWriter } from './crontab-writer';

/** Reads and changes crontabs; the reading and writing halves are {@link CrontabReader} and {@link CrontabWriter}. */
export interface CrontabStore extends CrontabReader, CrontabWriter {}

/** Makes the store over the trigger tables of `database`. */
export function makeCrontabStore(database: Pick<Database, 'db'>): CrontabStore {
  const db = triggerDb(database);
  return { ...makeCrontabReader(db), ...makeCrontabWriter(db) };
}
