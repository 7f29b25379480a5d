/**
 * The first step of a trigger: in one transaction, claim (trigger id, event name) in the TriggerLog
 * and, when the claim wins, write the execution's RUNNING history row. A lost claim writes nothing.
 *
 * @example
 * const { claimed, entry } = await claimTrigger(db, { input, tenant, payload, eventName, executionId, receivedTime, clock });
 */
import { randomUUID } from 'node:crypto';
import type { TriggerEventName, TriggerInput, TriggerPayload } from '../model/trigger-model';
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
    }
    return result;
  });
}
