/**
 * `fw_work_item_attempts_total` of the RabbitMQ consumer: each settled delivery as one attempt,
 * labelled from the fw headers the publisher set (tenant, process type, worker type). A message
 * handed back because the consumer is stopping was not attempted; one without the headers
 * (malformed) has no labels to count under.
 */
import type { AttemptResult, FwMetrics } from '@fw/telemetry';
import type { ConsumeMessage } from 'amqplib';
import { readWorkerHeaders } from '../message/worker-message-codec';
import type { Settlement } from './message-decision';

/** Reasons of an acknowledgement after the step ran to its end (anything else acknowledged recorded a failure). */
const SUCCEEDED = new Set(['handled', 'succeeded']);

/** The attempt result of a settlement, or undefined when it is no attempt to count. */
export function attemptResultOf(settlement: Settlement): AttemptResult | undefined {
  if (settlement.reason === 'stopping' || settlement.reason === 'stale') return undefined;
  if (settlement.kind === 'requeue') return 'retry';
  if (settlement.kind === 'reject') return 'dead';
  return SUCCEEDED.has(settlement.reason) ? 'success' : 'dead';
}

/** Counts a settled delivery in `metrics`. */
export function recordAttempt(metrics: FwMetrics, message: ConsumeMessage, settlement: Settlement): void {
  const result = attemptResultOf(settlement);
  if (result === undefined) return;
  const headers = readWorkerHeaders(message.properties);
  if (headers.processType === undefined || headers.workerType === undefined) return;
  metrics.workItemAttempt({
    tenant: headers.tenant ?? null,
    processType: headers.processType,
    workerType: headers.workerType,
    result,
  });
}
