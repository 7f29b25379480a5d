/** Runs `/health-check/{svc}` on demand and shows each check, the 503 details, or "no health checker" (404). */
import { useMutation } from '@tanstack/react-query';
import { useConnection } from '../../api/connection-context';
import { infoApi, type InfoApiError } from '../../api/info-client';
import type { HealthOutcome } from '../../api/info-types';
import { ErrorMessage } from '../../components/query-state';
import { TableHead } from '../../components/table-head';

export function HealthProbe({ service, declared }: { service: string; declared: boolean }) {
  const { connection, requestKey } = useConnection();
  const probe = useMutation<HealthOutcome, InfoApiError>({
    mutationFn: () => infoApi.health(connection, service),
    onError: (error) => {
      if (error.needsInfoKey) requestKey();
    },
  });
  return (
    <section aria-labelledby="health-title" className="panel">
      <h2 id="health-title">Health</h2>
      <p>
        {declared
          ? 'This service declares a health check.'
          : 'This service declares no health check; the probe will say so.'}
      </p>
      <button type="button" onClick={() => probe.mutate()} disabled={probe.isPending}>
        {probe.isPending ? 'Probing…' : 'Run health probe'}
      </button>
      <div aria-live="polite">
        {probe.isError && <ErrorMessage error={probe.error} what="the health check" />}
        {probe.data && <HealthResult outcome={probe.data} at={probe.submittedAt} />}
      </div>
    </section>
  );
}

function HealthResult({ outcome, at }: { outcome: HealthOutcome; at: number }) {
  const when = new Date(at).toLocaleTimeString();
  if (outcome.state === 'no-checker') {
    return (
      <p className="health-result">
        <span className="badge badge-none">no health checker</span> {outcome.description} (HTTP 404, {when})
      </p>
    );
  }
  return (
    <div className="health-result">
      <p>
        {outcome.state === 'healthy' ? (
          <span className="badge badge-up">healthy</span>
        ) : (
          <span className="badge badge-down">unhealthy</span>
        )}{' '}
        {outcome.state === 'unhealthy' ? `${outcome.description} (HTTP 503, ${when})` : `HTTP 200, ${when}`}
      </p>
      {outcome.checks.length > 0 && (
        <table className="checks">
          <TableHead columns={['Check', 'Result', 'Message']} />
          <tbody>
            {outcome.checks.map((c) => (
              <tr key={c.name}>
                <td>{c.name}</td>
                <td>{c.healthy ? 'healthy' : 'failing'}</td>
                <td>{c.message ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
