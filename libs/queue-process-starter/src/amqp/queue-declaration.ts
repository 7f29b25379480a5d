/**
 * Queue naming and declaration. The queue of a worker is the `queue` entry of its definition's
 * config map (`WorkerDto.config.queue`), used as the RabbitMQ queue name as it is (published through
 * the default exchange, routing key = queue name). Starter and consumer declare queues with the same
 * arguments, so either may start first.
 *
 * @example
 * const defs: ProcessDef[] = [{ processType: 'import', leaf: true, config: { queue: 'fw.import' } }];
 * queueNameOf(worker);                   // 'fw.import' (or throws QueueConfigError)
 * await channel.assertQueue('fw.import', queueDeclaration('quorum'));
 */
import { FwError } from '@fw/core';
import type { WorkerDto } from '@fw/process-api';
import type { Options } from 'amqplib';

/** The config key naming a definition's queue. */
export const QUEUE_CONFIG_KEY = 'queue';

/**
 * `quorum` (default): replicated, durable, counts deliveries (`x-delivery-count`), which the
 * consumer uses to stop crash loops. `classic`: durable classic queue (no delivery count).
 */
export type QueueType = 'quorum' | 'classic';

/** A definition whose workers cannot be published: no or an invalid `config.queue`. */
export class QueueConfigError extends FwError {
  constructor(
    message: string,
    readonly processType: string,
  ) {
    super({ code: 500, subErrorCode: 'QPS_QUEUE_CONFIG', description: message, expose: false });
    this.name = 'QueueConfigError';
  }
}

/** Checks a queue name against RabbitMQ's rules; returns an error text or undefined. */
export function queueNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'is empty';
  if (Buffer.byteLength(name, 'utf8') > 255) return 'is longer than 255 bytes';
  if (name.startsWith('amq.')) return "starts with 'amq.' (reserved by RabbitMQ)";
  return undefined;
}

/** The queue a worker is published to; throws {@link QueueConfigError} when the definition names none. */
export function queueNameOf(worker: Pick<WorkerDto, 'processType' | 'workerType' | 'config'>): string {
  const value: unknown = worker.config?.[QUEUE_CONFIG_KEY];
  if (typeof value !== 'string' || value === '') {
    throw new QueueConfigError(
      `process type '${worker.processType}' has no config.${QUEUE_CONFIG_KEY}: the queue starter cannot publish its ${worker.workerType} worker (add "config": { "${QUEUE_CONFIG_KEY}": "<queue name>" } to the definition)`,
      worker.processType,
    );
  }
  const problem = queueNameProblem(value);
  if (problem !== undefined)
    throw new QueueConfigError(
      `config.${QUEUE_CONFIG_KEY} '${value}' of process type '${worker.processType}' ${problem}`,
      worker.processType,
    );
  return value;
}

/** The `assertQueue` options both sides use: durable, never auto-deleted, of the given type. */
export function queueDeclaration(type: QueueType): Options.AssertQueue {
  return { durable: true, autoDelete: false, exclusive: false, arguments: { 'x-queue-type': type } };
}
