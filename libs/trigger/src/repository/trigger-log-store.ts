/**
 * The TriggerLog (`fw_trigger_log`): idempotency data only, one row per (trigger id, event name).
 * `claim` inserts with `on conflict do nothing`, so of several concurrent claims of one pair
 * exactly one wins; the others wait for its transaction and then read the winner's row.
 *
 * @example
 * const log = makeTriggerLogStore(triggerDb(database));
 * const { claimed, entry } = await log.claim({ triggerId: 'cron:…', eventName: 'ProcessCreate', tenant: 't1', logId, eventId });
 */
import type { Kysely } from 'kysely';
import type { TriggerTables } from '../schema/trigger-tables';

export interface TriggerLogEntry {
  logId: string;
  triggerId: string;
  eventName: string;
  tenant: string;
  eventId: string;
  createdAt: Date;
}

export type NewTriggerLogEntry = Omit<TriggerLogEntry, 'createdAt'>;

export interface TriggerLogStore {
  /**
   * Logs the pair unless it is logged already. `claimed: true` with the new entry, or
   * `claimed: false` with the entry logged first. Run it in the transaction that also writes
   * the history row, so both commit together.
   */
  claim(entry: NewTriggerLogEntry): Promise<{ claimed: boolean; entry: TriggerLogEntry }>;
  find(triggerId: string, eventName: string): Promise<TriggerLogEntry | undefined>;
}

type Row = {
  log_id: string;
  trigger_id: string;
  event_name: string;
  tenant: string;
  event_id: string;
  created_at: Date;
};

function toEntry(row: Row): TriggerLogEntry {
  return {
    logId: row.log_id,
    triggerId: row.trigger_id,
    eventName: row.event_name,
    tenant: row.tenant,
    eventId: row.event_id,
    createdAt: row.created_at,
  };
}

/** Makes the store over a Kysely handle (the database or an open transaction). */
export function makeTriggerLogStore(db: Kysely<TriggerTables>): TriggerLogStore {
  const store: TriggerLogStore = {
    async claim(entry) {
      const inserted = await db
        .insertInto('fw_trigger_log')
        .values({
          log_id: entry.logId,
          trigger_id: entry.triggerId,
          event_name: entry.eventName,
          tenant: entry.tenant,
          event_id: entry.eventId,
        })
        .onConflict((oc) => oc.columns(['trigger_id', 'event_name']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return { claimed: true, entry: toEntry(inserted) };
      const existing = await store.find(entry.triggerId, entry.eventName);
      if (!existing)
        throw new Error(`trigger log: (${entry.triggerId}, ${entry.eventName}) conflicted but cannot be read`);
      return { claimed: false, entry: existing };
    },
    async find(triggerId, eventName) {
      const row = await db
        .selectFrom('fw_trigger_log')
        .selectAll()
        .where('trigger_id', '=', triggerId)
        .where('event_name', '=', eventName)
        .executeTakeFirst();
      return row ? toEntry(row) : undefined;
    },
  };
  return store;
}
