export { makeQueueProcessStarter } from './starter/queue-process-starter';
export type {
  QueueProcessStarter,
  QueueProcessStarterOptions,
  QueueStarterStats,
} from './starter/queue-process-starter';
export { makeQueueWorkerConsumer } from './consumer/queue-worker-consumer';
export type {
  QueueWorkerConsumer,
  QueueWorkerConsumerOptions,
  QueueWorkerHandler,
  QueueWorkerContext,
  QueueConsumerEvent,
  QueueConsumerEventType,
  QueueConsumerState,
  QueueConsumerStats,
  ConsumerStopResult,
} from './consumer/queue-worker-consumer';
export { reportFailure, ERROR_EVENT_BY_WORKER_TYPE } from './consumer/failure-report';
export type { ReportResult, ReportVerdict, StepRef } from './consumer/failure-report';
export {
  QueueHeaders,
  WORKER_MESSAGE_TYPE,
  encodeWorkerMessage,
  readWorkerHeaders,
  deliveryCountOf,
} from './message/worker-message-codec';
export type { EncodedWorkerMessage, WorkerMessageHeaders } from './message/worker-message-codec';
export {
  QUEUE_CONFIG_KEY,
  QueueConfigError,
  queueNameOf,
  queueNameProblem,
  queueDeclaration,
} from './amqp/queue-declaration';
export type { QueueType } from './amqp/queue-declaration';
export { BrokerUnavailableError, makeAmqpConnectionSource, redactAmqpUrl } from './amqp/amqp-connection';
export type { AmqpConnectionOptions, AmqpConnectionSource } from './amqp/amqp-connection';
export { DEFAULT_RECONNECT_DELAY } from './amqp/reconnect-backoff';
export type { BackoffDelay } from './amqp/reconnect-backoff';
