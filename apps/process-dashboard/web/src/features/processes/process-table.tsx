/**
 * The process table: one row per process, with expandable children in roots-only mode (each
 * expanded row lists its children page by page, to any depth). Expansion is kept across refreshes.
 */
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { ProcessSummary } from '../../api/types';
import { processPath, tracePath } from '../../app/paths';
import { useLiveQuery } from '../../app/preferences';
import { DataTable, TableRow, type Column, type DataTableProps } from '../../components/data-table';
import { ProgressBar, StatusBadge } from '../../components/status';
import { TimeText, shortId } from '../../components/time';
import { useApi } from '../session/session';

/** A process as the table draws it: how deep in the tree, and whether its children may be shown. */
interface TreeRow {
  p: ProcessSummary;
  depth: number;
  expandable: boolean;
}

/** What the rows need besides their process: the tenant and the expanded rows. */
interface TreeContext {
  tenant: string;
  expanded: ReadonlySet<string>;
  onToggle(id: string): void;
}

export interface ProcessTableProps
  extends TreeContext, Pick<DataTableProps<TreeRow>, 'empty' | 'loading' | 'error' | 'wrapRef' | 'pagination'> {
  /** The processes of the page; undefined until the first answer. */
  rows: readonly ProcessSummary[] | undefined;
  /** Roots-only mode: rows that are not leaves expand into their children. */
  expandable: boolean;
  caption: string;
}

const CHILD_PAGE = 10;
const COLUMN_COUNT = 7;

/** The first cell: the toggle of the children (or its space) and the link to the process, indented by depth. */
function TypeCell({ row, context }: { row: TreeRow; context: TreeContext }) {
  const { p, expandable } = row;
  const open = context.expanded.has(p.id);
  return (
    <>
      {expandable ? (
        <button
          type="button"
          className="toggle"
          aria-expanded={open}
          aria-label={`${open ? 'Fold' : 'Expand'} the children of ${p.processType} ${shortId(p.id)}`}
          onClick={() => context.onToggle(p.id)}
        >
          {open ? '▾' : '▸'}
        </button>
      ) : (
        <span className="toggle-space" aria-hidden="true" />
      )}
      <Link to={processPath(context.tenant, p.id)} data-row-link="" data-row-id={p.id}>
        {p.processType}
      </Link>
    </>
  );
}

function processColumns(context: TreeContext): Column<TreeRow>[] {
  const { tenant } = context;
  return [
    {
      header: 'Type',
      cell: (row) => <TypeCell row={row} context={context} />,
      cellProps: ({ depth }) => ({ style: { paddingLeft: `${depth * 1.5 + 0.5}rem` } }),
    },
    { header: 'Status', cell: ({ p }) => <StatusBadge status={p.status} /> },
    {
      header: 'Progress',
      cell: ({ p }) =>
        p.leaf ? (
          <span className="muted">leaf</span>
        ) : (
          <ProgressBar
            done={p.numCompletedSubProcesses}
            total={p.numSubProcesses}
            percent={p.completedPercent}
            label={`Progress of ${p.processType} ${shortId(p.id)}`}
          />
        ),
    },
    { header: 'Created', cell: ({ p }) => <TimeText iso={p.createdTime} /> },
    {
      header: 'Trigger',
      className: 'mono',
      cell: ({ p }) =>
        p.triggerId ? (
          <Link to={tracePath(tenant, { triggerId: p.triggerId })}>{p.triggerId}</Link>
        ) : (
          <span className="muted">—</span>
        ),
    },
    { header: 'Id', className: 'mono', cell: ({ p }) => shortId(p.id), cellProps: ({ p }) => ({ title: p.id }) },
    {
      header: 'Trace',
      cell: ({ p }) => (
        <Link
          to={tracePath(tenant, { processId: p.id })}
          aria-label={`Causal graph of ${p.processType} ${shortId(p.id)}`}
        >
          graph
        </Link>
      ),
    },
  ];
}

/** A line of the child rows about them (loading, none, their pages), indented under the parent. */
function ChildNote({ depth, muted, children }: { depth: number; muted?: boolean; children: ReactNode }) {
  return (
    <tr className="child-row">
      <td
        colSpan={COLUMN_COUNT}
        style={{ paddingLeft: `${depth * 1.5 + 2}rem` }}
        className={muted ? 'muted' : undefined}
      >
        {children}
      </td>
    </tr>
  );
}

function ChildRows({
  parent,
  depth,
  columns,
  context,
}: {
  parent: ProcessSummary;
  depth: number;
  columns: readonly Column<TreeRow>[];
  context: TreeContext;
}) {
  const api = useApi();
  const [page, setPage] = useState(0);
  const query = useLiveQuery([context.tenant, 'processes', 'children', parent.id, page], () =>
    api.listProcesses({ parentId: parent.id }, { page, size: CHILD_PAGE }),
  );
  const data = query.data;
  if (!data)
    return <ChildNote depth={depth}>{query.isError ? 'Children could not be loaded.' : 'Loading children…'}</ChildNote>;
  return (
    <>
      {data.content.map((child) => (
        <TreeRows
          key={child.id}
          row={{ p: child, depth, expandable: !child.leaf }}
          columns={columns}
          context={context}
        />
      ))}
      {data.totalPages > 1 && (
        <ChildNote depth={depth}>
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
        </ChildNote>
      )}
      {data.totalElements === 0 && (
        <ChildNote depth={depth} muted>
          No children yet.
        </ChildNote>
      )}
    </>
  );
}

/** A process's row and, when it is expanded, the rows of its children below it. */
function TreeRows({
  row,
  columns,
  context,
}: {
  row: TreeRow;
  columns: readonly Column<TreeRow>[];
  context: TreeContext;
}) {
  return (
    <>
      <TableRow columns={columns} row={row} className={row.depth > 0 ? 'child-row' : undefined} />
      {context.expanded.has(row.p.id) && (
        <ChildRows parent={row.p} depth={row.depth + 1} columns={columns} context={context} />
      )}
    </>
  );
}

export function ProcessTable({ rows, tenant, expandable, expanded, onToggle, caption, ...table }: ProcessTableProps) {
  const context: TreeContext = { tenant, expanded, onToggle };
  const columns = processColumns(context);
  return (
    <DataTable
      {...table}
      label={caption}
      columns={columns}
      rows={rows?.map((p) => ({ p, depth: 0, expandable: expandable && !p.leaf }))}
      rowKey={(row) => row.p.id}
      renderRow={(row) => <TreeRows row={row} columns={columns} context={context} />}
    />
  );
}
