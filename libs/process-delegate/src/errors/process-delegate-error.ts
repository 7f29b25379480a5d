/**
 * The error every failed delegate call rejects with. For answers in the framework envelope it
 * carries the envelope's `code`, `subErrorCode`, `description` and `errors`; transport failures
 * and answers that are not an envelope get the delegate's own sub-error codes.
 *
 * @example
 * try { await delegate.sendEvent(id, 'doneSuccessfully', { output }); }
 * catch (e) { if (isProcessDelegateError(e) && e.subErrorCode === 'P422') { ... already done ... } }
 */

/** Sub-error codes of the delegate itself. */
export const DelegateErrorCodes = {
  /** [503] The server could not be reached (connection refused, DNS, reset). */
  unreachable: 'PD001',
  /** [504] No answer within `timeoutMs`. */
  timeout: 'PD002',
  /** [502, or the HTTP status] The answer is not a framework envelope (not JSON, wrong shape). */
  invalidResponse: 'PD003',
} as const;

/** One entry of the envelope's `errors`. */
export interface DelegateErrorDetail {
  code: string;
  subErrorCode: string;
  description: string;
  params?: unknown[];
  field?: string;
  severity?: string;
}

export interface ProcessDelegateErrorInit {
  code: number;
  subErrorCode: string;
  description: string;
  severity?: string;
  errors?: DelegateErrorDetail[];
  /** HTTP status of the answer; 0 when there was none. */
  status: number;
  method: string;
  url: string;
  cause?: unknown;
}

export class ProcessDelegateError extends Error {
  readonly type = 'ProcessDelegateError' as const;
  /** HTTP-like status: the envelope's `code`, or 502/503/504 for the delegate's own failures. */
  readonly code: number;
  readonly subErrorCode: string;
  readonly description: string;
  readonly severity: string;
  readonly errors: DelegateErrorDetail[];
  readonly status: number;
  readonly method: string;
  readonly url: string;

  constructor(init: ProcessDelegateErrorInit) {
    super(
      `${init.method} ${init.url}: ${init.code} ${init.subErrorCode} ${init.description}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.name = 'ProcessDelegateError';
    this.code = init.code;
    this.subErrorCode = init.subErrorCode;
    this.description = init.description;
    this.severity = init.severity ?? 'ERROR';
    this.errors = init.errors ?? [];
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
  }
}

/** True for a {@link ProcessDelegateError}, also across package copies. */
export function isProcessDelegateError(value: unknown): value is ProcessDelegateError {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'ProcessDelegateError';
}
