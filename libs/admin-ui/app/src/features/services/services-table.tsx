/** The table of the services page: one row per shown service, its name linking to its page. */
import { Link } from 'react-router';
import type { ServiceSummary } from '../../api/info-types';
import { TableHead } from '../../components/table-head';
import { HealthBadge } from '../health/health-badge';

export function ServicesTable({ services }: { services: readonly ServiceSummary[] }) {
  return (
    <table className="services">
      <TableHead columns={['Name', 'Kind', 'Version', 'Health', 'Description']} />
      <tbody>
        {services.map((s) => (
          <tr key={s.name}>
            <td>
              <Link to={`/services/${encodeURIComponent(s.name)}`}>{s.name}</Link>
            </td>
            <td>
              <span className={`kind kind-${s.kind}`}>{s.kind}</span>
            </td>
            <td>{s.version}</td>
            <td>
              <HealthBadge service={s} />
            </td>
            <td className="description">{s.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
