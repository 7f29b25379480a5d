/**
 * Typed HTTP client of the process endpoints (`makeProcessRouter` of `@fw/process-service`).
 * Answers are unwrapped from the framework envelope; failures reject with
 * {@link ProcessDelegateError}. The tenant goes out as `x-fw-tenant-id`: per call, else the
 * client's default. `deliver` makes the client a ProcessEventSink of `@fw/process-utils`, and
 * `childResults` its ChildResultsLoader, so workers can run in another process.
 *
 * @example
 * const delegate = makeProcessDelegate({ baseUrl: 'http://127.0.0.1:8080', tenant: 'acme' });
 * const { mutatedEntity } = await delegate.createProcess({ processDefName: 'import', args: { day: 1 } });
 * await delegate.sendEvent(mutatedEntity.id, 'statusUpdate', { percentComplete: 10 });
 * const tree = await delegate.processChildren(mutatedEntity.id, { recursive: true });
 */
import {
  TRIGGER_HEADER,
  ProcessStates,
  type Process,
  type ProcessCompletedEvent,
  type ProcessDto,
  type ProcessEventPayloads,
  type ProcessResponse,
  type SubProcessResult,
} from '@fw/process-api';
import { DelegateErrorCodes, ProcessDelegateError, type DelegateErrorDetail } from '../errors/process-delegate-error';

/** Header carrying the tenant (same value as `TENANT_HEADER` of `@fw/core`). */
export const TENANT_HEADER = 'x-fw-tenant-id';

export interface ProcessDelegateOptions {
  /** Where the process endpoints are mounted, e.g. `http://127.0.0.1:8080` or `https://gw/api`. */
  baseUrl: string;
  /** Default tenant of every call (a call's own `tenant` wins; `null` sends none). */
  tenant?: string | null;
  /** Extra headers on every call (for example an authorization header of a gateway). */
  headers?: Record<string, string>;
  /** Per-call timeout in milliseconds (default 30000). */
  timeoutMs?: number;
  /** The fetch to use (default the global fetch of Node 20). */
  fetch?: typeof fetch;
}

export interface DelegateCallOptions {
  /** Tenant of this call; `null` sends no tenant header. */
  tenant?: string | null;
}

export interface CreateOptions extends DelegateCallOptions {
  /** Sent as `x-fw-trigger-id` (the body's `triggerId` wins on the server). */
  triggerId?: string;
}

export interface ProcessDelegate {
  /** POST /process. */
  createProcess(dto: ProcessDto, options?: CreateOptions): Promise<ProcessResponse>;
  /** GET /process/:id. */
  getProcess(id: string, options?: DelegateCallOptions): Promise<ProcessResponse>;
  /** PATCH /process/:id/:eventId with the event's typed payload. */
  sendEvent<E extends keyof ProcessEventPayloads>(
    id: string,
    eventId: E,
    payload: ProcessEventPayloads[E],
    options?: DelegateCallOptions,
  ): Promise<ProcessResponse>;
  /** GET /processChildren/:id: the process first, then its children (every descendant when `recursive`). */
  processChildren(id: string, options?: DelegateCallOptions & { recursive?: boolean }): Promise<Process[]>;
  /** POST /process/completed: the successors created now. */
  processCompleted(event: ProcessCompletedEvent, options?: DelegateCallOptions): Promise<Process[]>;
  /** ProcessEventSink: PATCH /process/:processId/:eventId under `tenant`. */
  deliver(processId: string, eventId: string, payload: unknown, tenant: string | null): Promise<void>;
  /** ChildResultsLoader: the direct children's results, from GET /processChildren/:id. */
  childResults(processId: string, tenant: string | null): Promise<SubProcessResult[]>;
  /**
   * The same as the sink's loader: a batch service given this delegate as its sink reads an
   * aggregator's children through it when the message carries none (a split of more than 1,000).
   */
  loadChildResults(processId: string, tenant: string | null): Promise<SubProcessResult[]>;
}

interface Envelope {
  success: boolean;
  code: number;
  payload?: unknown;
  subErrorCode?: string;
  description?: string;
  severity?: string;
  errors?: DelegateErrorDetail[];
}

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Envelope).success === 'boolean' &&
    typeof (value as Envelope).code === 'number'
  );
}

/** Sends one request to the process service and resolves the payload of its envelope. */
type DelegateCall = <T>(
  method: string,
  path: string,
  body: unknown,
  tenant: string | null | undefined,
  extra?: Record<string, string>,
) => Promise<T>;

type FailFactory = (
  code: number,
  subErrorCode: string,
  description: string,
  status: number,
  cause?: unknown,
) => ProcessDelegateError;

/** Reads the answer's envelope: its payload on success, else the envelope's error (or why it is no envelope). */
async function unwrapEnvelope<T>(response: Response, fail: FailFactory, method: string, url: string): Promise<T> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch (err) {
    throw fail(
      response.ok ? 502 : response.status,
      DelegateErrorCodes.invalidResponse,
      `Answer is not JSON (HTTP ${response.status})`,
      response.status,
      err,
    );
  }
  if (!isEnvelope(parsed))
    throw fail(
      response.ok ? 502 : response.status,
      DelegateErrorCodes.invalidResponse,
      `Answer is not a framework envelope (HTTP ${response.status})`,
      response.status,
    );
  if (!parsed.success) {
    throw new ProcessDelegateError({
      code: parsed.code,
      subErrorCode: parsed.subErrorCode ?? '',
      description: parsed.description ?? `HTTP ${response.status}`,
      severity: parsed.severity,
      errors: parsed.errors,
      status: response.status,
      method,
      url,
    });
  }
  return parsed.payload as T;
}

/** The HTTP call of the client: headers (tenant, content type), timeout, transport errors, envelope. */
function makeDelegateCall(options: ProcessDelegateOptions): DelegateCall {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30000;

  return async function call<T>(
    method: string,
    path: string,
    body: unknown,
    tenant: string | null | undefined,
    extra: Record<string, string> = {},
  ): Promise<T> {
    const url = `${base}${path}`;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers, ...extra };
    const effectiveTenant = tenant !== undefined ? tenant : options.tenant;
    if (effectiveTenant !== undefined && effectiveTenant !== null) headers[TENANT_HEADER] = effectiveTenant;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const fail: FailFactory = (code, subErrorCode, description, status, cause) =>
      new ProcessDelegateError({ code, subErrorCode, description, status, method, url, cause });

    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const name = (err as { name?: unknown } | null)?.name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw fail(504, DelegateErrorCodes.timeout, `No answer within ${timeoutMs} ms`, 0, err);
      throw fail(
        503,
        DelegateErrorCodes.unreachable,
        `Process service unreachable: ${err instanceof Error ? err.message : String(err)}`,
        0,
        err,
      );
    }
    return unwrapEnvelope<T>(response, fail, method, url);
  };
}

/** Makes the client. Nothing is sent until the first call. */
export function makeProcessDelegate(options: ProcessDelegateOptions): ProcessDelegate {
  const call = makeDelegateCall(options);
  const id = (value: string) => encodeURIComponent(value);

  const delegate: ProcessDelegate = {
    createProcess: (dto, o = {}) =>
      call('POST', '/process', dto, o.tenant, o.triggerId === undefined ? {} : { [TRIGGER_HEADER]: o.triggerId }),
    getProcess: (processId, o = {}) => call('GET', `/process/${id(processId)}`, undefined, o.tenant),
    sendEvent: (processId, eventId, payload, o = {}) =>
      call('PATCH', `/process/${id(processId)}/${id(eventId)}`, payload ?? {}, o.tenant),
    processChildren: (processId, o = {}) =>
      call('GET', `/processChildren/${id(processId)}${o.recursive ? '?recursive=true' : ''}`, undefined, o.tenant),
    processCompleted: (event, o = {}) => call('POST', '/process/completed', event, o.tenant),
    async deliver(processId, eventId, payload, tenant) {
      await call('PATCH', `/process/${id(processId)}/${id(eventId)}`, payload ?? {}, tenant);
    },
    loadChildResults: (processId, tenant) => delegate.childResults(processId, tenant),
    async childResults(processId, tenant) {
      const [, ...children] = await delegate.processChildren(processId, { tenant });
      return children
        .filter((c) => c.parentId === processId)
        .map((c) => ({
          processId: c.id,
          processType: c.processType,
          stateId: c.state.stateId,
          successful: c.state.stateId === ProcessStates.PROCESSED,
          output: c.output,
        }));
    },
  };
  return delegate;
}
