import type { ServiceKind, ServiceSummary } from '../../api/info-types';

export const KINDS: readonly ServiceKind[] = ['http', 'headless', 'workflow', 'query', 'process'];

/** Services whose name, description or version contains every word of `text`, of `kind` if given; sorted by name. */
export function filterServices(
  services: readonly ServiceSummary[],
  text: string,
  kind: ServiceKind | '',
): ServiceSummary[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  return services
    .filter(
      (s) =>
        (kind === '' || s.kind === kind) &&
        words.every((w) => `${s.name} ${s.description} ${s.version}`.toLowerCase().includes(w)),
    )
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function countByKind(services: readonly ServiceSummary[]): Map<ServiceKind, number> {
  const counts = new Map<ServiceKind, number>();
  for (const s of services) counts.set(s.kind, (counts.get(s.kind) ?? 0) + 1);
  return counts;
}
