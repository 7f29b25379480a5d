import { AsyncLocalStorage } from 'node:async_hooks';

/** Header that carries the tenant id on every framework HTTP API. */
export const TENANT_HEADER = 'x-fw-tenant-id';

/** Allowed shape of a tenant id (letters, digits, `_`, `.`, `-`; 1 to 128 characters). */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** What the framework knows about the current request's caller. */
export interface RequestContext {
  /** Tenant id from `x-fw-tenant-id`, or undefined when the request carried none. */
  tenantId?: string;
  /** Other framework headers (`x-fw-*`), lower-cased, for propagation to workers and events. */
  headers: Record<string, string>;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with `context` as the current request context. */
export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** Runs `fn` with `tenantId` as the current tenant (other headers empty). */
export function runWithTenant<T>(tenantId: string | undefined, fn: () => T): T {
  return storage.run({ tenantId, headers: tenantId === undefined ? {} : { [TENANT_HEADER]: tenantId } }, fn);
}

/** The current request context, if any. */
export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

/** The current tenant id, if the current context has one. */
export function currentTenantId(): string | undefined {
  return storage.getStore()?.tenantId;
}
