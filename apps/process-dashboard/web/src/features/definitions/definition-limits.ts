/**
 * A definition's fairness fields in a few words for the definitions table and the health view:
 * `5 running/tenant, 20 running in all · priority 7 · 10/s per tenant`; undefined when it sets
 * none. {@link atTenantLimit} says whether a tenant's RUNNING items fill its per-tenant limit.
 *
 * @example
 * limitsText({ processType: 'x', leaf: true, concurrency: { perTenant: 5 } }); // '5 running/tenant'
 * atTenantLimit({ concurrency: { perTenant: 5 } }, 5); // true: its next item waits for a slot
 */
import type { ProcessDef } from '../../api/types';

export function limitsText(def: Pick<ProcessDef, 'concurrency' | 'priority' | 'rateLimit'>): string | undefined {
  const parts: string[] = [];
  const c = def.concurrency;
  const running = [
    c?.perTenant ? `${c.perTenant} running/tenant` : '',
    c?.global ? `${c.global} running in all` : '',
  ].filter(Boolean);
  if (running.length > 0) parts.push(running.join(', '));
  if (def.priority !== undefined && def.priority !== null) parts.push(`priority ${def.priority}`);
  if (def.rateLimit)
    parts.push(`${def.rateLimit.perSecond}/s ${def.rateLimit.scope === 'tenant' ? 'per tenant' : 'in all'}`);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

/** True when one tenant's `running` items fill the definition's per-tenant concurrency limit. */
export function atTenantLimit(def: Pick<ProcessDef, 'concurrency'>, running: number): boolean {
  const cap = def.concurrency?.perTenant;
  return cap !== undefined && cap !== null && running >= cap;
}
