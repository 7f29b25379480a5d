/** The definition tab of a service page: interceptors, health check, details and operations. */
import type { ServiceDescription } from '../../api/info-types';
import { OperationList } from './operation-list';

export function ServiceDefinition({ service: s }: { service: ServiceDescription }) {
  return (
    <div className="panel">
      <dl className="facts">
        <dt>Interceptors</dt>
        <dd>
          {s.interceptors.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            <span className="chips">
              {s.interceptors.map((i) => (
                <span key={i} className="chip">
                  {i}
                </span>
              ))}
            </span>
          )}
        </dd>
        <dt>Health check</dt>
        <dd>{s.healthCheck ? 'declared' : 'none'}</dd>
        {s.details &&
          Object.entries(s.details).map(([k, v]) => (
            <div key={k} className="fact">
              <dt>{k}</dt>
              <dd>{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
            </div>
          ))}
      </dl>
      <h2>Operations ({s.operations.length})</h2>
      <OperationList operations={s.operations} />
    </div>
  );
}
