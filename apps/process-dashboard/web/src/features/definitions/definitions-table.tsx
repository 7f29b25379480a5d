/** The table of the definitions view: one row per definition, its process type linking to its editor. */
import { Link } from 'react-router';
import type { ProcessDef } from '../../api/types';
import { tenantPath } from '../../app/paths';
import { limitsText } from './definition-limits';

export function DefinitionsTable({ definitions, tenant }: { definitions: readonly ProcessDef[]; tenant: string }) {
  return (
    <table className="grid" aria-label="Definitions by process type">
      <thead>
        <tr>
          <th scope="col">Process type</th>
          <th scope="col">Kind</th>
          <th scope="col">Parent type</th>
          <th scope="col">Successor of</th>
          <th scope="col">Input schema</th>
          <th scope="col">Limits</th>
          <th scope="col">Config</th>
        </tr>
      </thead>
      <tbody>
        {definitions.map((d) => (
          <tr key={d.processType}>
            <td>
              <Link to={tenantPath(tenant, `definitions/${encodeURIComponent(d.processType)}`)} data-row-link="">
                {d.processType}
              </Link>
            </td>
            <td>{d.leaf ? 'leaf' : 'splits'}</td>
            <td>{d.parentProcessType ?? <span className="muted">any / root</span>}</td>
            <td>
              {d.predecessorProcessType ? (
                `${d.predecessorProcessType} (${d.predecessorArgs ?? 'BOTH'})`
              ) : (
                <span className="muted">—</span>
              )}
            </td>
            <td>{d.inputSchema ? 'yes' : <span className="muted">no</span>}</td>
            <td className="small">{limitsText(d) ?? <span className="muted">—</span>}</td>
            <td className="mono small">
              {d.config && Object.keys(d.config).length > 0
                ? Object.entries(d.config)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(', ')
                : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
