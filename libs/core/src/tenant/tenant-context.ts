import { AsyncLocalStorage } from 'node:async_hooks';

/** Header that carries the tenant id on every framework HTTP API. */
export const TENANT_HEADER = 'x-fw-tenant-id';

/** Header that carries the trigger id of a request a trigger raised (same value as `TRIGGER_HEADER` of `@fw/process-api`). */
export const TRIGGER_ID_HEADER = 'x-fw-trigger-id';

/** Allowed shape of a tenant id (letters, digits, `_`, `.`, `-`; 1 to 128 characters). */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** The trigger that raised a request: kept on the process it creates as `triggerId`. */
export interface RequestTrigger {
  /** The stored trigger id (for example `manual:<tenant>:<key>`, `external:<tenant>:<key>`). */
  readonly id: string;
  /**
   * Where the trigger came from (`MANUAL`, `EXTERNAL`, `CRON`) when the trigger service raised the
   * request; absent where only the id is known (a worker, a caller's `x-fw-trigger-id` header).
   */
  readonly source?: string;
}

/** The authenticated identity behind a request, as the access guard that accepted it knows it. */
export interface RequestCaller {
  /** Who: `key:<fingerprint>` for a key (never the key itself), `jwt:<sub>` for a token. */
  readonly actor: string;
  /** The kind of credential (`key`, `jwt`). */
  readonly credential: string;
  /** The strongest role the credential carries, or null when it carries none. */
  readonly role: string | null;
}

/**
 * What the framework knows about the current request: created once where the request enters (an
 * HTTP route, the trigger service, a worker picking up a step) and handed down unchanged.
 */
export interface RequestContext {
  /** Tenant id (`x-fw-tenant-id`), or undefined when the request has none. */
  readonly tenantId?: string;
  /** The trigger that raised the request, when one did. */
  readonly trigger?: RequestTrigger;
  /** The id that ties log lines and audit rows of this request together (`X-Request-Id`). */
  readonly requestId?: string;
  /** The authenticated caller, when an access guard accepted one. */
  readonly caller?: RequestCaller;
  /**
   * Framework headers (`x-fw-*`), lower-cased, for propagation to workers and events. Always
   * holds `x-fw-tenant-id` and `x-fw-trigger-id` when the context has a tenant and a trigger.
   */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * What the process's one `AsyncLocalStorage` holds: the request context and, when a host traces,
 * the tracing library's active context (`runWithTracingContext`, used by `@fw/telemetry-node`'s
 * context manager). One storage for both because Node copies every enabled storage onto every
 * promise the process creates: at thousands of work items a second, a second storage costs about
 * a microsecond per item. Entering one of the two keeps the other.
 */
interface AmbientFrame {
  readonly request?: RequestContext;
  readonly tracing?: unknown;
}

const storage = new AsyncLocalStorage<AmbientFrame>();

/** Runs `fn` with `context` as the current request context (the tracing context stays as it is). */
export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run({ request: context, tracing: storage.getStore()?.tracing }, fn);
}

/** Runs `fn` with `tenantId` as the current tenant (other headers empty). */
export function runWithTenant<T>(tenantId: string | undefined, fn: () => T): T {
  return runWithContext({ tenantId, headers: tenantId === undefined ? {} : { [TENANT_HEADER]: tenantId } }, fn);
}

/** The current request context, if any. */
export function currentContext(): RequestContext | undefined {
  return storage.getStore()?.request;
}

/** The current tenant id, if the current context has one. */
export function currentTenantId(): string | undefined {
  return storage.getStore()?.request?.tenantId;
}

/**
 * Runs `fn` with `tracing` as the tracing library's active context; the request context stays what
 * it is. For a tracing context manager (`@fw/telemetry-node` registers one for OpenTelemetry).
 *
 * @example
 * const manager = {
 *   active: () => (currentTracingContext() as Context | undefined) ?? ROOT_CONTEXT,
 *   with: (ctx, fn, thisArg, ...args) => runWithTracingContext(ctx, () => fn.apply(thisArg, args)),
 *   // bind, enable, disable …
 * };
 */
export function runWithTracingContext<T>(tracing: unknown, fn: () => T): T {
  return storage.run({ request: storage.getStore()?.request, tracing }, fn);
}

/** The tracing library's active context, as {@link runWithTracingContext} set it. */
export function currentTracingContext(): unknown {
  return storage.getStore()?.tracing;
}
