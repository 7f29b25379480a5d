export {
  OUTBOX_DEFAULTS,
  OUTBOX_PROPERTY_KEYS,
  defaultWorkerId,
  resolveOutboxOptions,
  outboxOptionsFromProperties,
  environmentKeyOf,
} from './options/outbox-options';
export type { OutboxOptions } from './options/outbox-options';
export { OutboxStatus, OUTBOX_TABLES, outboxDb } from './schema/outbox-tables';
export type { OutboxTables, FwProcessOutboxTable, FwProcessReceiptTable } from './schema/outbox-tables';
export { makeOutboxRepository } from './repository/outbox-repository';
export type {
  OutboxRepository,
  OutboxCommand,
  NewOutboxCommand,
  OutboxClaimOptions,
} from './repository/outbox-repository';
export { readOutboxFigures } from './repository/outbox-figures';
export type { OutboxFigures } from './repository/outbox-figures';
export { makeOutboxWriter } from './repository/outbox-writer';
export type { OutboxWriter } from './repository/outbox-writer';
export { outboxBackoff } from './dispatcher/command-handler';
export type { OutboxCommandHandler, OutboxExecutionContext, OutboxBackoff } from './dispatcher/command-handler';
export { makeOutboxDispatcher } from './dispatcher/outbox-dispatcher';
export type {
  OutboxDispatcher,
  OutboxDispatcherOptions,
  OutboxDispatcherStats,
  OutboxEvent,
  OutboxEventType,
} from './dispatcher/outbox-dispatcher';
export { processOutboxMigrations } from './schema/process-outbox-migrations';
