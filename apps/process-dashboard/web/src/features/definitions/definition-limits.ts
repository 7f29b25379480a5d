/**
 * A definition's fairness fields in a few words for the definitions table: `5/tenant, 20 in all ·
 * priority 7 · 10/s per tenant`; undefined when it sets none.
 *
 * @example
 * limitsText({ processType: 'x', leaf: true, concurrency: { perTenant: 5 } }); // '5 running/tenant'
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
