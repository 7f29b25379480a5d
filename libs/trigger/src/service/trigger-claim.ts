/**
 * The first step of a trigger: in one transaction, claim (trigger id, event name) in the TriggerLog
 * and, when the claim wins, write the execution's RUNNING history row. A lost claim writes nothing;
 * one lost to a trigger of another tenant is refused (CONFLICT) before the caller's own row
 * (`inTransaction`, run last in the same transaction, for a duplicate too) is written.
 *
 * @example
 * const { claimed, entry } = await claimTrigger(db, { input, tenant, payload, eventName, executionId, receivedTime, clock });
 */
import { randomUUID } from 'node:crypto';
import { TriggerError } from '../errors/trigger-error';
import type { TriggerEventName, TriggerInput, TriggerPayload, WriteOptions } from '../model/trigger-model';
import { makeExecutionStore } from '../repository/execution-store';
import { makeTriggerLogStore, type TriggerLogEntry } from '../repository/trigger-log-store';
import type { TriggerDb } from '../schema/trigger-tables';

/** One checked trigger to claim. */
export interface TriggerClaim {
  input: TriggerInput;
  tenant: string;
  payload: TriggerPayload;
  eventName: TriggerEventName;
  executionId: string;
  receivedTime: Date;
  clock: () => Date;
  inTransaction?: WriteOptions['inTransaction'];
}

/** `claimed: true` with the new log entry, or `claimed: false` with the entry logged first. */
export async function claimTrigger(
  db: TriggerDb,
  claim: TriggerClaim,
): Promise<{ claimed: boolean; entry: TriggerLogEntry }> {
  const { input, tenant, eventName } = claim;
  return db.transaction().execute(async (trx) => {
    const result = await makeTriggerLogStore(trx).claim({
      logId: randomUUID(),
      eventId: randomUUID(),
      triggerId: input.triggerId,
      eventName,
      tenant,
    });
    if (result.claimed) {
      await makeExecutionStore(trx).insertRunning({
        id: claim.executionId,
        triggerId: input.triggerId,
        tenant,
        source: input.source,
        scheduledTime: input.scheduledTime ?? null,
        receivedTime: claim.receivedTime,
        startTime: claim.clock(),
        eventName,
        payload: claim.payload,
        cronId: input.cronId ?? null,
        logId: result.entry.logId,
        eventId: result.entry.eventId,
      });
    } else if (result.entry.tenant !== tenant) {
      throw new TriggerError('CONFLICT', `trigger id '${input.triggerId}' is already used by another tenant`, {
        field: 'triggerId',
      });
    }
    await claim.inTransaction?.(trx);
    return result;
  });
}
