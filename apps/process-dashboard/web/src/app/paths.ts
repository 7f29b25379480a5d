/** The dashboard's URLs: every view sits under `/t/<tenant>/` so links can be shared. */

export const VIEWS = ['processes', 'executions', 'trigger', 'cron', 'definitions', 'audit'] as const;
export type ViewName = (typeof VIEWS)[number];

export function tenantPath(tenant: string, rest = 'processes'): string {
  return `/t/${encodeURIComponent(tenant)}/${rest}`;
}

export function processPath(tenant: string, id: string): string {
  return tenantPath(tenant, `processes/${encodeURIComponent(id)}`);
}

export function tracePath(
  tenant: string,
  by: { processId: string } | { triggerId: string },
  view: 'graph' | 'timeline' = 'graph',
): string {
  const query = new URLSearchParams('processId' in by ? { processId: by.processId } : { triggerId: by.triggerId });
  if (view !== 'graph') query.set('view', view);
  return tenantPath(tenant, `trace?${query.toString()}`);
}

export function executionsPath(tenant: string, filter: Record<string, string> = {}): string {
  const query = new URLSearchParams(filter).toString();
  return tenantPath(tenant, `executions${query ? `?${query}` : ''}`);
}

/**
 * The same view in another tenant: records of a tenant (a process, a trace, a crontab) do not
 * exist in the other one, so those fall back to their list; definitions are global and stay.
 */
export function switchTenantPath(pathname: string, search: string, tenant: string): string {
  const match = /^\/t\/[^/]+\/?(.*)$/.exec(pathname);
  const rest = match ? match[1] : '';
  const [view = 'processes', detail] = rest.split('/');
  if (view === 'definitions') return tenantPath(tenant, rest || 'definitions');
  if (view === 'trace') return tenantPath(tenant, 'processes');
  if (!(VIEWS as readonly string[]).includes(view)) return tenantPath(tenant, 'processes');
  const keepQuery = detail === undefined && (view === 'processes' || view === 'executions') ? search : '';
  return tenantPath(tenant, `${view}${keepQuery}`);
}
