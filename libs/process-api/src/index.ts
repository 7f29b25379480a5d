export {
  PROCESS_FLOW_ID,
  ProcessStates,
  TERMINAL_STATES,
  isTerminalState,
  ProcessEvents,
  PROCESS_EVENT_IDS,
  isProcessEventId,
  ProcessApplicationEvents,
  TRIGGER_HEADER,
} from './model/process-states';
export type { ProcessStateId, ProcessEventId } from './model/process-states';
export type {
  Process,
  ProcessState,
  ProcessErrorRecord,
  ProcessDto,
  ProcessCompletedEvent,
  AllowedActionInfo,
  ProcessResponse,
  JsonValue,
} from './model/process';
export type {
  SubProcessRequest,
  SplitPayload,
  OutputPayload,
  ErrorPayload,
  SubProcessDonePayload,
  SubProcessErrorPayload,
  StatusUpdatePayload,
  ProcessEventPayloads,
} from './model/event-payloads';
export { DEFAULT_PRIORITY, PredecessorArgs, predecessorArgsOf } from './model/process-def';
export type { ConcurrencyLimit, ProcessDef, PredecessorArgsMode, RateLimit, RetryPolicy } from './model/process-def';
export { isoDurationMillis } from './model/history-retention';
export type { HistoryRetention } from './model/history-retention';
export { WorkerType, WORKER_TYPE_BY_STATE } from './model/worker';
export type { WorkerDto, SubProcessResult } from './model/worker';
export type { WorkerStarter, WorkerStartContext } from './ports/worker-starter';
export type { ProcessConfigurator } from './ports/process-configurator';
export { ProcessErrorCodes } from './errors/process-error-codes';
export type { ProcessErrorCode } from './errors/process-error-codes';
