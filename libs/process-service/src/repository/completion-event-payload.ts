/**
 * The `payload` column of `fw_process_completion_event`: the ProcessCompletedEvent without what
 * the row holds in columns of its own (`process_id`, `process_type`, `tenant`, `trigger_id`,
 * `state`, `successful`) and without the two fields that repeat others (`processDefName` is the
 * process type, `args` its input, as the engine writes every event). A fan-out writes one event per
 * leaf, and the repeated fields were most of its bytes: kept once, a leaf's row is about 200 bytes
 * smaller, in the table, its WAL and the JSON parameter PostgreSQL parses. Reading puts the event
 * back together from the row; rows written by earlier releases hold the whole event, which reads
 * back the same.
 */
import type { ProcessCompletedEvent } from '@fw/process-api';
import type { Selectable } from 'kysely';
import type { FwProcessCompletionEventTable } from './process-tables';

/** What `payload` stores; `processDefName` and `args` only where they differ from type and input. */
export type StoredCompletionPayload = Partial<ProcessCompletedEvent>;

/** The columns an event is stored in and read back from. */
export type CompletionEventColumns = Pick<
  Selectable<FwProcessCompletionEventTable>,
  'process_id' | 'process_type' | 'tenant' | 'trigger_id' | 'state' | 'successful' | 'payload'
>;

/** The row's columns for `event` (without its id and time), the payload as {@link storedCompletionPayloadOf}. */
export function completionEventColumnsOf(event: ProcessCompletedEvent): CompletionEventColumns {
  return {
    process_id: event.processId,
    process_type: event.processType,
    tenant: event.tenantId,
    trigger_id: event.triggerId,
    state: event.state,
    successful: event.successful,
    payload: storedCompletionPayloadOf(event),
  };
}

/** The payload to store for `event`. */
export function storedCompletionPayloadOf(event: ProcessCompletedEvent): StoredCompletionPayload {
  const {
    processId: _id,
    processType,
    tenantId: _tenant,
    triggerId: _trigger,
    state: _state,
    successful: _successful,
    processDefName,
    args,
    ...rest
  } = event;
  const stored: StoredCompletionPayload = rest;
  if (processDefName !== processType) stored.processDefName = processDefName;
  if (args !== event.input) stored.args = args;
  return stored;
}

/**
 * The event of a stored row. A payload that is no JSON object (a row written by hand) counts as
 * empty: the event is then what the columns say.
 */
export function completionEventOf(row: CompletionEventColumns): ProcessCompletedEvent {
  const stored = (
    row.payload !== null && typeof row.payload === 'object' && !Array.isArray(row.payload) ? row.payload : {}
  ) as StoredCompletionPayload;
  const input = stored.input ?? null;
  return {
    processDefName: stored.processDefName ?? row.process_type,
    args: 'args' in stored ? stored.args : input,
    triggerId: row.trigger_id,
    description: stored.description ?? null,
    processId: row.process_id,
    processType: row.process_type,
    tenantId: row.tenant,
    state: row.state,
    input,
    output: stored.output ?? null,
    successful: row.successful,
  };
}
