export { makeProcessDelegate, TENANT_HEADER } from './client/process-delegate';
export type {
  ProcessDelegate,
  ProcessDelegateOptions,
  DelegateCallOptions,
  CreateOptions,
} from './client/process-delegate';
export { ProcessDelegateError, isProcessDelegateError, DelegateErrorCodes } from './errors/process-delegate-error';
export type { DelegateErrorDetail, ProcessDelegateErrorInit } from './errors/process-delegate-error';
