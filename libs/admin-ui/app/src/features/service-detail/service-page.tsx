/**
 * One service (`/service-info/{svc}`), as tabs in the URL: `/services/{svc}` its definition,
 * `/services/{svc}/health` the probe, `/services/{svc}/workflow` a workflow service's diagrams.
 */
import { Link, NavLink, useParams } from 'react-router';
import { infoApi } from '../../api/info-client';
import { useInfoQuery } from '../../api/use-info-query';
import { ErrorMessage, Loading } from '../../components/query-state';
import { HealthProbe } from '../health/health-probe';
import { WorkflowPanel } from '../workflow/workflow-panel';
import { ServiceDefinition } from './service-definition';

export function ServicePage() {
  const { svc = '', tab = 'definition' } = useParams();
  const service = useInfoQuery(['service', svc], (c) => infoApi.service(c, svc));
  if (service.isPending) return <Loading what={`service ${svc}`} />;
  if (service.isError) {
    return (
      <section>
        <h1>{svc}</h1>
        <ErrorMessage error={service.error} what={`service ${svc}`} />
        <p>
          <Link to="/">Back to the services</Link>
        </p>
      </section>
    );
  }
  const s = service.data;
  const base = `/services/${encodeURIComponent(s.name)}`;
  const tabs = [
    { id: 'definition', label: 'Definition', to: base },
    { id: 'health', label: 'Health', to: `${base}/health` },
    ...(s.kind === 'workflow' ? [{ id: 'workflow', label: 'Workflow', to: `${base}/workflow` }] : []),
  ];
  return (
    <section aria-labelledby="service-title">
      <header className="page-header">
        <p className="breadcrumb">
          <Link to="/">Services</Link> /
        </p>
        <h1 id="service-title">
          {s.name} <span className={`kind kind-${s.kind}`}>{s.kind}</span> <span className="version">{s.version}</span>
        </h1>
        {s.description && <p>{s.description}</p>}
      </header>
      <nav className="tabs" aria-label="Service views">
        {tabs.map((t) => (
          <NavLink
            key={t.id}
            to={t.to}
            end
            className={() => (t.id === tab ? 'tab active' : 'tab')}
            aria-current={t.id === tab ? 'page' : undefined}
          >
            {t.label}
          </NavLink>
        ))}
      </nav>
      {tab === 'health' ? (
        <HealthProbe service={s.name} declared={s.healthCheck} />
      ) : tab === 'workflow' && s.kind === 'workflow' ? (
        <WorkflowPanel service={s.name} />
      ) : (
        <ServiceDefinition service={s} />
      )}
    </section>
  );
}
