import { currentFrame, runInFrame } from '../context/ambient-storage';

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

/** Runs `fn` with `context` as the current request context (the tracing context stays as it is). */
export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return runInFrame<RequestContext, T>({ request: context, tracing: currentFrame()?.tracing }, fn);
}

/** Runs `fn` with `tenantId` as the current tenant (other headers empty). */
export function runWithTenant<T>(tenantId: string | undefined, fn: () => T): T {
  return runWithContext({ tenantId, headers: tenantId === undefined ? {} : { [TENANT_HEADER]: tenantId } }, fn);
}

/** The current request context, if any. */
export function currentContext(): RequestContext | undefined {
  return currentFrame<RequestContext>()?.request;
}

/** The current tenant id, if the current context has one. */
export function currentTenantId(): string | undefined {
  return currentFrame<RequestContext>()?.request?.tenantId;
}
