/** The columns of the definitions table: one row per definition, its process type linking to its editor. */
import { Link } from 'react-router';
import type { ProcessDef } from '../../api/types';
import { tenantPath } from '../../app/paths';
import type { Column } from '../../components/data-table';
import { limitsText } from './definition-limits';

export function definitionColumns(tenant: string): Column<ProcessDef>[] {
  return [
    {
      header: 'Process type',
      cell: (d) => (
        <Link to={tenantPath(tenant, `definitions/${encodeURIComponent(d.processType)}`)} data-row-link="">
          {d.processType}
        </Link>
      ),
    },
    { header: 'Kind', cell: (d) => (d.leaf ? 'leaf' : 'splits') },
    { header: 'Parent type', cell: (d) => d.parentProcessType ?? <span className="muted">any / root</span> },
    {
      header: 'Successor of',
      cell: (d) =>
        d.predecessorProcessType ? (
          `${d.predecessorProcessType} (${d.predecessorArgs ?? 'BOTH'})`
        ) : (
          <span className="muted">—</span>
        ),
    },
    { header: 'Input schema', cell: (d) => (d.inputSchema ? 'yes' : <span className="muted">no</span>) },
    { header: 'Limits', className: 'small', cell: (d) => limitsText(d) ?? <span className="muted">—</span> },
    {
      header: 'Config',
      className: 'mono small',
      cell: (d) =>
        d.config && Object.keys(d.config).length > 0
          ? Object.entries(d.config)
              .map(([k, v]) => `${k}=${v}`)
              .join(', ')
          : '—',
    },
  ];
}
