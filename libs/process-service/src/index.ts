export { makeProcessFlow, PROCESS_FLOW_FILE } from './flow/process-flow';
export type { ProcessFlow, ProcessFlowOptions } from './flow/process-flow';
export { processFlowActions, processFlowConditions } from './flow/process-flow-actions';
export type { ProcessStep, ProcessAction, ProcessCondition } from './flow/process-flow-actions';
export { makeProcessManager } from './manager/process-manager';
export type {
  ProcessManager,
  ProcessManagerOptions,
  ProcessCallOptions,
  CreateProcessOptions,
} from './manager/process-manager';
export { ProcessCommandTypes } from './manager/process-engine';
export type { CompletionListener, BatchWorkerStarter } from './manager/process-engine';
export type { ProcessEventRequest, ProcessEventResult } from './manager/process-event-batch';
export { makeProcessOutbox } from './outbox/process-outbox';
export type { ProcessOutbox, ProcessOutboxSettings } from './outbox/process-outbox';
export { makeProcessCommandHandlers } from './outbox/process-command-handlers';
export { makeProcessEventHandlers } from './manager/process-event-handlers';
export type { ProcessEventHandlers } from './manager/process-event-handlers';
export { completedEventOf, successorInput } from './manager/process-chaining';
export { makeProcessRepository } from './repository/process-repository';
export type { ProcessRepository, ChildReport, FindOptions } from './repository/process-repository';
export { makeProcessBatchRepository } from './repository/process-batch-repository';
export {
  completionEventColumnsOf,
  completionEventOf,
  storedCompletionPayloadOf,
} from './repository/completion-event-payload';
export type { CompletionEventColumns, StoredCompletionPayload } from './repository/completion-event-payload';
export type {
  ProcessBatchRepository,
  ProcessStateWrite,
  CompletionEventWrite,
} from './repository/process-batch-repository';
export { processDb } from './repository/process-tables';
export type {
  ProcessTables,
  ProcessDb,
  ProcessTransaction,
  FwProcessTable,
  FwProcessErrorTable,
  FwProcessChildReportTable,
  FwProcessCompletionEventTable,
  ProcessDefinitionTable,
} from './repository/process-tables';
export { makeJsonProcessConfigurator } from './configurators/json-process-configurator';
export type { JsonProcessConfiguratorOptions } from './configurators/json-process-configurator';
export { makeDatabaseProcessConfigurator } from './configurators/database-process-configurator';
export type {
  DatabaseProcessConfigurator,
  DatabaseProcessConfiguratorOptions,
} from './configurators/database-process-configurator';
export { makeProcessConfigurator } from './configurators/process-configurator-factory';
export type {
  ProcessConfiguratorOptions,
  ProcessConfiguratorSource,
} from './configurators/process-configurator-factory';
export { parseProcessDef } from './configurators/process-def-validation';
export { assertInputMatches, assertRootType, checkInputSchema } from './manager/input-validation';
export { PROCESS_TABLES } from './repository/process-schema';
export { PROCESS_API_SCHEMAS, EVENT_PAYLOAD_SCHEMAS } from './openapi/process-api-schemas';
export {
  NAME_MAX_LENGTH,
  MAX_TRIGGER_ID_LENGTH,
  STORED_TRIGGER_ID_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  NO_OUTER_BLANKS,
  UUID_PATTERN,
  INPUT_PATTERN_MESSAGES,
  processTypeName,
  storedTriggerId,
  processDescription,
  processArgs,
} from './openapi/process-input-policy';
export { PROCESS_API_OPERATIONS } from './openapi/process-api-operations';
export type { ProcessApiOperation } from './openapi/process-api-operations';
export { processServiceMigrations } from './schema/process-service-migrations';
