/** The ecosystem catalog of a host running the service registry (`GET /serviceregistry`). */
import { infoApi } from '../../api/info-client';
import { useInfoQuery } from '../../api/use-info-query';
import { ErrorMessage, Loading } from '../../components/query-state';
import { TableHead } from '../../components/table-head';

/** Whether the host answers `/serviceregistry` (the navigation shows the view only then). */
export function useCatalog() {
  return useInfoQuery(['catalog'], (c) => infoApi.catalog(c), { staleTime: 15_000 });
}

export function EcosystemPage() {
  const catalog = useCatalog();
  if (catalog.isPending) return <Loading what="the ecosystem catalog" />;
  if (catalog.isError) return <ErrorMessage error={catalog.error} what="the ecosystem catalog (/serviceregistry)" />;
  const services = catalog.data.reduce((n, entry) => n + entry.services.length, 0);
  return (
    <section aria-labelledby="ecosystem-title">
      <header className="page-header">
        <h1 id="ecosystem-title">Ecosystem</h1>
        <p>
          {catalog.data.length} host{catalog.data.length === 1 ? '' : 's'} registered, {services} service
          {services === 1 ? '' : 's'} in all.
        </p>
      </header>
      {catalog.data.length === 0 && <p className="empty">No host has registered yet.</p>}
      {catalog.data.map((entry) => (
        <article
          key={entry.baseUrl}
          className="panel host-entry"
          aria-label={`Host ${entry.host?.name ?? entry.baseUrl}`}
        >
          <h2>
            {entry.host ? `${entry.host.name} ${entry.host.version}` : entry.baseUrl} <code>{entry.baseUrl}</code>
          </h2>
          <p className="muted">
            registered {new Date(entry.registeredAt).toLocaleString()}, last seen{' '}
            {new Date(entry.lastSeen).toLocaleString()}
          </p>
          <table>
            <TableHead columns={['Service', 'Kind', 'Version', 'Health check', 'Description']} />
            <tbody>
              {entry.services.map((s) => (
                <tr key={s.name}>
                  <td>{s.name}</td>
                  <td>
                    <span className={`kind kind-${s.kind}`}>{s.kind}</span>
                  </td>
                  <td>{s.version}</td>
                  <td>{s.healthCheck ? 'yes' : 'no'}</td>
                  <td>{s.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </article>
      ))}
    </section>
  );
}
