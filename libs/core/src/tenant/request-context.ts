/**
 * Building a {@link RequestContext}: once where a request enters, and again on the far side of a
 * process boundary from the fields a process row stores (`tenant`, `triggerId`).
 *
 * @example
 * const context = makeRequestContext({ tenantId: 't1', trigger: { id: 'manual:t1:k1', source: 'MANUAL' } });
 * // context.headers: { 'x-fw-tenant-id': 't1', 'x-fw-trigger-id': 'manual:t1:k1' }
 * await runWithContext(context, () => handlers.ProcessCreate(dto, context));
 */
import {
  TENANT_HEADER,
  TRIGGER_ID_HEADER,
  type RequestCaller,
  type RequestContext,
  type RequestTrigger,
} from './tenant-context';

/** The fields of a new context; `headers` adds further `x-fw-*` headers to those derived from the fields. */
export interface RequestContextFields {
  tenantId?: string | null;
  trigger?: RequestTrigger | null;
  requestId?: string | null;
  caller?: RequestCaller | null;
  headers?: Readonly<Record<string, string>>;
}

/**
 * A frozen context whose `headers` agree with its fields (`x-fw-tenant-id`, `x-fw-trigger-id`
 * set from `tenantId` and `trigger.id`, winning over the same names in `fields.headers`).
 */
export function makeRequestContext(fields: RequestContextFields): RequestContext {
  const headers: Record<string, string> = { ...fields.headers };
  if (fields.tenantId != null) headers[TENANT_HEADER] = fields.tenantId;
  if (fields.trigger != null) headers[TRIGGER_ID_HEADER] = fields.trigger.id;
  return Object.freeze({
    ...(fields.tenantId == null ? {} : { tenantId: fields.tenantId }),
    ...(fields.trigger == null ? {} : { trigger: Object.freeze({ ...fields.trigger }) }),
    ...(fields.requestId == null ? {} : { requestId: fields.requestId }),
    ...(fields.caller == null ? {} : { caller: Object.freeze({ ...fields.caller }) }),
    headers: Object.freeze(headers),
  });
}

/** What a process row (and every WorkerDto) keeps of the context that created the process. */
export interface StoredRequestContext {
  tenant: string | null;
  triggerId: string | null;
}

/** The last context {@link restoreRequestContext} built, with the fields it was built from. */
let lastRestored: (StoredRequestContext & { context: RequestContext }) | undefined;

/**
 * The context a worker runs in, rebuilt from what the process row stores: its tenant and trigger
 * id (the trigger's source, the request id and the caller stay with the request that created it).
 * The same fields as the call before give the same (frozen) context again: the leaves of a
 * fan-out's batch share them, and each new context is three frozen objects.
 */
export function restoreRequestContext(stored: StoredRequestContext): RequestContext {
  const last = lastRestored;
  if (last !== undefined && last.tenant === stored.tenant && last.triggerId === stored.triggerId) return last.context;
  const context = makeRequestContext({
    tenantId: stored.tenant,
    trigger: stored.triggerId === null ? null : { id: stored.triggerId },
  });
  lastRestored = { tenant: stored.tenant, triggerId: stored.triggerId, context };
  return context;
}

/** The context's values as the process row stores them (`tenant`, `triggerId`; null when absent). */
export function storedRequestContext(context: RequestContext | undefined): StoredRequestContext {
  return { tenant: context?.tenantId ?? null, triggerId: context?.trigger?.id ?? null };
}
