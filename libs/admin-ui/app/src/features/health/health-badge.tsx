/** A service's health in a list row: probed on load (a few at a time), or "no checker". */
import { infoApi } from '../../api/info-client';
import type { ServiceSummary } from '../../api/info-types';
import { useInfoQuery } from '../../api/use-info-query';
import { healthProbes } from './probe-limiter';

export function HealthBadge({ service }: { service: ServiceSummary }) {
  const health = useInfoQuery(['health', service.name], (c) => healthProbes(() => infoApi.health(c, service.name)), {
    enabled: service.healthCheck,
  });
  if (!service.healthCheck) return <span className="badge badge-none">no checker</span>;
  if (health.isPending) return <span className="badge badge-pending">checking…</span>;
  if (health.isError)
    return (
      <span className="badge badge-down" title={health.error.message}>
        error
      </span>
    );
  const outcome = health.data;
  if (outcome.state === 'healthy') return <span className="badge badge-up">healthy</span>;
  if (outcome.state === 'unhealthy')
    return (
      <span className="badge badge-down" title={outcome.description}>
        unhealthy
      </span>
    );
  return <span className="badge badge-none">no checker</span>;
}
