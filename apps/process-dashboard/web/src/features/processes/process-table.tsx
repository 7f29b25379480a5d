/**
 * The process table: one row per process, with expandable children in roots-only mode (each
 * expanded row lists its children page by page, to any depth). Expansion is kept across refreshes.
 */
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import type { ProcessSummary } from '../../api/types';
import { processPath, tracePath } from '../../app/paths';
import { useLiveQuery } from '../../app/preferences';
import { ProgressBar, StatusBadge } from '../../components/status';
import { TimeText, shortId } from '../../components/time';
import { useApi } from '../session/session';

export interface ProcessTableProps {
  rows: ProcessSummary[];
  tenant: string;
  expandable: boolean;
  expanded: ReadonlySet<string>;
  onToggle(id: string): void;
  caption: string;
}

const CHILD_PAGE = 10;

function ChildRows({
  parent,
  depth,
  tenant,
  expanded,
  onToggle,
}: {
  parent: ProcessSummary;
  depth: number;
  tenant: string;
  expanded: ReadonlySet<string>;
  onToggle(id: string): void;
}) {
  const api = useApi();
  const [page, setPage] = useState(0);
  const query = useLiveQuery([tenant, 'processes', 'children', parent.id, page], () =>
    api.listProcesses({ parentId: parent.id }, { page, size: CHILD_PAGE }),
  );
  const data = query.data;
  if (!data) {
    return (
      <tr className="child-row">
        <td colSpan={7} style={{ paddingLeft: `${depth * 1.5 + 2}rem` }}>
          {query.isError ? 'Children could not be loaded.' : 'Loading children…'}
        </td>
      </tr>
    );
  }
  return (
    <>
      {data.content.map((child) => (
        <Row
          key={child.id}
          p={child}
          depth={depth}
          tenant={tenant}
          expandable={!child.leaf}
          expanded={expanded}
          onToggle={onToggle}
        />
      ))}
      {data.totalPages > 1 && (
        <tr className="child-row">
          <td colSpan={7} style={{ paddingLeft: `${depth * 1.5 + 2}rem` }}>
            <span className="muted">
              Children {page * CHILD_PAGE + 1}–{Math.min(data.totalElements, (page + 1) * CHILD_PAGE)} of{' '}
              {data.totalElements}
            </span>{' '}
            <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Previous children
            </button>{' '}
            <button type="button" disabled={page + 1 >= data.totalPages} onClick={() => setPage(page + 1)}>
              More children
            </button>
          </td>
        </tr>
      )}
      {data.totalElements === 0 && (
        <tr className="child-row">
          <td colSpan={7} style={{ paddingLeft: `${depth * 1.5 + 2}rem` }} className="muted">
            No children yet.
          </td>
        </tr>
      )}
    </>
  );
}

function Row({
  p,
  depth,
  tenant,
  expandable,
  expanded,
  onToggle,
}: {
  p: ProcessSummary;
  depth: number;
  tenant: string;
  expandable: boolean;
  expanded: ReadonlySet<string>;
  onToggle(id: string): void;
}) {
  const open = expanded.has(p.id);
  return (
    <Fragment>
      <tr className={depth > 0 ? 'child-row' : undefined}>
        <td style={{ paddingLeft: `${depth * 1.5 + 0.5}rem` }}>
          {expandable ? (
            <button
              type="button"
              className="toggle"
              aria-expanded={open}
              aria-label={`${open ? 'Fold' : 'Expand'} the children of ${p.processType} ${shortId(p.id)}`}
              onClick={() => onToggle(p.id)}
            >
              {open ? '▾' : '▸'}
            </button>
          ) : (
            <span className="toggle-space" aria-hidden="true" />
          )}
          <Link to={processPath(tenant, p.id)} data-row-link="" data-row-id={p.id}>
            {p.processType}
          </Link>
        </td>
        <td>
          <StatusBadge status={p.status} />
        </td>
        <td>
          {p.leaf ? (
            <span className="muted">leaf</span>
          ) : (
            <ProgressBar
              done={p.numCompletedSubProcesses}
              total={p.numSubProcesses}
              percent={p.completedPercent}
              label={`Progress of ${p.processType} ${shortId(p.id)}`}
            />
          )}
        </td>
        <td>
          <TimeText iso={p.createdTime} />
        </td>
        <td className="mono">
          {p.triggerId ? (
            <Link to={tracePath(tenant, { triggerId: p.triggerId })}>{p.triggerId}</Link>
          ) : (
            <span className="muted">—</span>
          )}
        </td>
        <td className="mono" title={p.id}>
          {shortId(p.id)}
        </td>
        <td>
          <Link
            to={tracePath(tenant, { processId: p.id })}
            aria-label={`Causal graph of ${p.processType} ${shortId(p.id)}`}
          >
            graph
          </Link>
        </td>
      </tr>
      {open && <ChildRows parent={p} depth={depth + 1} tenant={tenant} expanded={expanded} onToggle={onToggle} />}
    </Fragment>
  );
}

export function ProcessTable({ rows, tenant, expandable, expanded, onToggle, caption }: ProcessTableProps) {
  return (
    <table className="grid" aria-label={caption}>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col">Status</th>
          <th scope="col">Progress</th>
          <th scope="col">Created</th>
          <th scope="col">Trigger</th>
          <th scope="col">Id</th>
          <th scope="col">Trace</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => (
          <Row
            key={p.id}
            p={p}
            depth={0}
            tenant={tenant}
            expandable={expandable && !p.leaf}
            expanded={expanded}
            onToggle={onToggle}
          />
        ))}
      </tbody>
    </table>
  );
}
