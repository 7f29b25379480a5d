/**
 * What becomes of one worker message (see `queue-worker-consumer.ts`): the body read (the tenant
 * header wins), a crash loop cut after `maxDeliveries`, the step run in the context of the request
 * that created the process, and a failure the worker code could not record reported to the process.
 * The answer is a settlement: ack, requeue (after a pause) or reject.
 */
import { restoreRequestContext, runWithContext, type Logger, type RequestContext } from '@fw/core';
import type { WorkerDto } from '@fw/process-api';
import {
  failureOf,
  readWorkerMessage,
  WorkerFailureKinds,
  type ReadMessage,
  type WorkerFailure,
} from '@fw/process-utils';
import type { ConsumeMessage } from 'amqplib';
import { readWorkerHeaders, type WorkerMessageHeaders } from '../message/worker-message-codec';
import { reportFailure, type StepRef } from './failure-report';
import type { QueueConsumerEvent, QueueWorkerConsumerOptions, QueueWorkerHandler } from './queue-consumer-types';

/** How a message ends: acknowledged, requeued (after a pause) or rejected. */
export type Settlement = { kind: 'ack' | 'requeue' | 'reject'; reason: string; processId?: string };

export interface MessageDecisionDeps {
  options: Pick<QueueWorkerConsumerOptions, 'batchService' | 'handler' | 'sink'>;
  logger: Logger;
  maxDeliveries: number;
  counters: { reported: number };
  emit(event: QueueConsumerEvent): void;
}

/** Decides a message: `(queue, message, delivery, signal)` → its settlement. */
export type MessageDecision = (
  queue: string,
  message: ConsumeMessage,
  delivery: number,
  signal: AbortSignal,
) => Promise<Settlement>;

function parseBody(content: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(content.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The context of the request that created the process, rebuilt from what its row stores. */
function contextOf(tenant: string | null, triggerId: string | null): RequestContext {
  return restoreRequestContext({ tenant, triggerId });
}

/** The body read as a WorkerDto, with the tenant of the header (the transport's word wins). */
function readMessage(message: ConsumeMessage, headers: WorkerMessageHeaders, logger: Logger): ReadMessage {
  const body = parseBody(message.content);
  if (!body.ok)
    return {
      ok: false,
      tenant: null,
      failure: { kind: WorkerFailureKinds.malformedPayload, message: 'worker message is not valid JSON' },
    };
  let value = body.value;
  if (headers.tenant !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const bodyTenant = (value as { tenant?: unknown }).tenant;
    if (typeof bodyTenant === 'string' && bodyTenant !== headers.tenant)
      logger.warn({ header: headers.tenant, body: bodyTenant }, 'tenant header and body differ: the header wins');
    value = { ...value, tenant: headers.tenant };
  }
  return readWorkerMessage(value);
}

/** Records `failure` on the step's process; the settlement follows from the answer. */
async function failStep(
  deps: MessageDecisionDeps,
  step: StepRef | undefined,
  failure: WorkerFailure,
  reason: string,
): Promise<Settlement> {
  const { logger } = deps;
  if (step === undefined) {
    logger.error(
      { failure: failure.message },
      'worker message not attributable to a process (no process id or worker type in body or headers): rejected',
    );
    return { kind: 'reject', reason: 'unattributable' };
  }
  const result = await runWithContext(contextOf(step.tenant, null), () =>
    reportFailure(deps.options.sink, step, failure),
  );
  const base = { processId: step.processId };
  switch (result.verdict) {
    case 'reported':
      deps.counters.reported += 1;
      deps.emit({ type: 'reported', processId: step.processId, reason });
      return { kind: 'ack', reason, ...base };
    case 'stale':
      return { kind: 'ack', reason: `${reason} (step already completed)`, ...base };
    case 'refused':
      logger.error(
        { ...base, err: result.error, failure: failure.message },
        'the process service refused the failure report: message rejected',
      );
      return { kind: 'reject', reason: `${reason} (report refused)`, ...base };
    default:
      logger.warn({ ...base, err: result.error }, 'failure could not be reported yet: message requeued');
      return { kind: 'requeue', reason: `${reason} (report failed)`, ...base };
  }
}

/** Runs the step through the BatchService or the handler. */
async function run(
  deps: MessageDecisionDeps,
  worker: WorkerDto,
  message: { queue: string; message: ConsumeMessage; delivery: number; signal: AbortSignal },
): Promise<Settlement> {
  const { options } = deps;
  const { queue, delivery, signal } = message;
  const step: StepRef = { processId: worker.processId, workerType: worker.workerType, tenant: worker.tenant };
  if (options.batchService !== undefined) {
    // The step sees `signal` (aborted when its result can no longer be acknowledged); author
    // errors are reported at once in this launch mode (one attempt: a redelivery is a crash recovery).
    const outcome = await options.batchService
      .run(worker, { attempt: 1, maxAttempts: 1, signal })
      .catch((error: unknown) => ({ status: 'undeliverable' as const, error }));
    const settled = { processId: worker.processId, reason: outcome.status };
    if (outcome.status === 'succeeded' || outcome.status === 'stale' || outcome.status === 'failed')
      return { kind: 'ack', ...settled };
    return { kind: 'requeue', ...settled };
  }
  const handler = options.handler as QueueWorkerHandler;
  const messageId = message.message.properties.messageId as string | undefined;
  try {
    await handler(worker, { queue, messageId, delivery, signal });
    return { kind: 'ack', processId: worker.processId, reason: 'handled' };
  } catch (error) {
    return failStep(deps, step, failureOf(error, WorkerFailureKinds.invocationFailure), 'handler-failed');
  }
}

/** Makes the decision of one consumer. */
export function makeMessageDecision(deps: MessageDecisionDeps): MessageDecision {
  const { maxDeliveries } = deps;
  return async (queue, message, delivery, signal) => {
    const headers = readWorkerHeaders(message.properties);
    const read = readMessage(message, headers, deps.logger);
    if (!read.ok) {
      const processId = read.processId ?? headers.processId;
      const workerType = read.workerType ?? headers.workerType;
      const tenant = headers.tenant ?? read.tenant ?? null;
      const step = processId !== undefined && workerType !== undefined ? { processId, workerType, tenant } : undefined;
      return failStep(deps, step, read.failure, 'malformed');
    }
    const worker = read.worker;
    if (delivery > maxDeliveries) {
      const failure: WorkerFailure = {
        kind: WorkerFailureKinds.invocationFailure,
        message: `worker message was delivered ${delivery} times without completing (consumers crashed, stopped or could not deliver its result); giving up after ${maxDeliveries}`,
      };
      return failStep(
        deps,
        { processId: worker.processId, workerType: worker.workerType, tenant: worker.tenant },
        failure,
        'too-many-deliveries',
      );
    }
    return runWithContext(contextOf(worker.tenant, worker.triggerId), () =>
      run(deps, worker, { queue, message, delivery, signal }),
    );
  };
}
