/**
 * The wire format of a worker message: the WorkerDto as UTF-8 JSON, persistent, with the routing
 * facts repeated as headers so a consumer can attribute (and report) a message whose body it cannot
 * read.
 *
 * | header | value |
 * |---|---|
 * | `x-fw-tenant-id` | the process tenant (absent when null) |
 * | `x-fw-trigger-id` | the trigger id (absent when null) |
 * | `x-fw-process-id`, `x-fw-process-type`, `x-fw-worker-type` | the WorkerDto's fields |
 *
 * @example
 * const { content, properties } = encodeWorkerMessage(worker);
 * channel.publish('', 'fw.import', content, properties);
 */
import { TENANT_HEADER } from '@fw/core';
import { TRIGGER_HEADER, WorkerType, type WorkerDto } from '@fw/process-api';
import type { MessageProperties, Options } from 'amqplib';
import { randomUUID } from 'node:crypto';

export const QueueHeaders = {
  tenant: TENANT_HEADER,
  trigger: TRIGGER_HEADER,
  processId: 'x-fw-process-id',
  processType: 'x-fw-process-type',
  workerType: 'x-fw-worker-type',
} as const;

/** The AMQP `type` property of worker messages. */
export const WORKER_MESSAGE_TYPE = 'fw.worker';

export interface EncodedWorkerMessage {
  content: Buffer;
  /** Publish options: persistent, JSON, a fresh `messageId`, the headers above. */
  properties: Options.Publish & { messageId: string; headers: Record<string, string> };
}

/** Encodes a worker for publishing (throws a TypeError when the input cannot be JSON). */
export function encodeWorkerMessage(worker: WorkerDto): EncodedWorkerMessage {
  let text: string;
  try {
    text = JSON.stringify(worker);
  } catch (err) {
    throw new TypeError(
      `the ${worker.workerType} worker of process ${worker.processId} cannot be serialised to JSON: ${(err as Error).message}`,
      { cause: err },
    );
  }
  const headers: Record<string, string> = {
    [QueueHeaders.processId]: worker.processId,
    [QueueHeaders.processType]: worker.processType,
    [QueueHeaders.workerType]: worker.workerType,
  };
  if (worker.tenant !== null) headers[QueueHeaders.tenant] = worker.tenant;
  if (worker.triggerId !== null) headers[QueueHeaders.trigger] = worker.triggerId;
  return {
    content: Buffer.from(text, 'utf8'),
    properties: {
      messageId: randomUUID(),
      persistent: true,
      contentType: 'application/json',
      contentEncoding: 'utf-8',
      type: WORKER_MESSAGE_TYPE,
      timestamp: Math.floor(Date.now() / 1000),
      headers,
    },
  };
}

/** The framework headers of a received message, each absent when missing or not a non-empty string. */
export interface WorkerMessageHeaders {
  tenant?: string;
  triggerId?: string;
  processId?: string;
  processType?: string;
  workerType?: WorkerType;
}

const WORKER_TYPES: readonly string[] = Object.values(WorkerType);

function text(headers: Record<string, unknown>, name: string): string | undefined {
  let value = headers[name];
  if (Buffer.isBuffer(value)) value = value.toString('utf8');
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Reads the framework headers of a received message. */
export function readWorkerHeaders(properties: Pick<MessageProperties, 'headers'>): WorkerMessageHeaders {
  const headers: Record<string, unknown> = properties.headers ?? {};
  const workerType = text(headers, QueueHeaders.workerType);
  return {
    tenant: text(headers, QueueHeaders.tenant),
    triggerId: text(headers, QueueHeaders.trigger),
    processId: text(headers, QueueHeaders.processId),
    processType: text(headers, QueueHeaders.processType),
    workerType: workerType !== undefined && WORKER_TYPES.includes(workerType) ? (workerType as WorkerType) : undefined,
  };
}

/**
 * How many times this message has been delivered, this delivery included. Quorum queues count
 * earlier unacknowledged deliveries in `x-delivery-count`; classic queues only say "redelivered"
 * (counted as 2).
 */
export function deliveryCountOf(message: {
  fields: { redelivered: boolean };
  properties: Pick<MessageProperties, 'headers'>;
}): number {
  const counted: unknown = message.properties.headers?.['x-delivery-count'];
  if (typeof counted === 'number' && Number.isFinite(counted) && counted >= 0) return counted + 1;
  return message.fields.redelivered ? 2 : 1;
}
