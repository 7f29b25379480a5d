/** Sections of the process detail: errors (stack traces folded), completion events, children, lineage. */
import { useState } from 'react';
import { Link } from 'react-router';
import type { CompletionEvent, ProcessDetail, ProcessErrorRecord, ProcessSummary } from '../../api/types';
import { executionsPath, processPath, tracePath } from '../../app/paths';
import { useLiveQuery } from '../../app/preferences';
import { DataTable, type Column } from '../../components/data-table';
import { Empty } from '../../components/feedback';
import { JsonBlock } from '../../components/json-block';
import { ProgressBar, StatusBadge } from '../../components/status';
import { TimeText, shortId } from '../../components/time';
import { useApi } from '../session/session';

export function ErrorList({
  errors,
  tenant,
  selfId,
}: {
  errors: ProcessErrorRecord[];
  tenant: string;
  selfId: string;
}) {
  if (errors.length === 0) return <Empty>No errors.</Empty>;
  return (
    <ol className="errors">
      {errors.map((e, i) => (
        <li key={`${e.processId}-${i}`} className="error-item">
          <div>
            <TimeText iso={e.timeOfCompletion} /> ·{' '}
            {e.processId === selfId ? (
              'this process'
            ) : (
              <>
                child <Link to={processPath(tenant, e.processId)}>{shortId(e.processId)}</Link>
              </>
            )}
          </div>
          {e.errors.length > 0 && (
            <ul>
              {e.errors.map((msg, j) => (
                <li key={j}>{msg}</li>
              ))}
            </ul>
          )}
          {e.exceptionMessage && <p className="mono">{e.exceptionMessage}</p>}
          {e.stackTrace && (
            <details>
              <summary>Stack trace ({e.stackTrace.split('\n').length} lines)</summary>
              <pre className="stack">{e.stackTrace}</pre>
            </details>
          )}
        </li>
      ))}
    </ol>
  );
}

function completionColumns(tenant: string): Column<CompletionEvent>[] {
  return [
    { header: 'Generated', cell: (e) => <TimeText iso={e.generatedTime} /> },
    { header: 'State', cell: (e) => <StatusBadge status={e.state} /> },
    { header: 'Successful', cell: (e) => (e.successful ? 'yes' : 'no') },
    {
      header: 'Payload',
      cell: (e) => (
        <>
          <JsonBlock value={e.payload} label={`Payload of event ${shortId(e.id)}`} />
          {e.triggerId && <Link to={tracePath(tenant, { triggerId: e.triggerId })}>trace of the trigger</Link>}
        </>
      ),
    },
  ];
}

export function CompletionEvents({ events, tenant }: { events: CompletionEvent[]; tenant: string }) {
  return (
    <DataTable
      label="Completion events"
      columns={completionColumns(tenant)}
      rows={events}
      rowKey={(e) => e.id}
      empty="No completion event stored (the process has not completed)."
    />
  );
}

function childColumns(tenant: string): Column<ProcessSummary>[] {
  return [
    {
      header: 'Type',
      cell: (c) => (
        <Link to={processPath(tenant, c.id)} data-row-link="">
          {c.processType}
        </Link>
      ),
    },
    { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
    {
      header: 'Progress',
      cell: (c) =>
        c.leaf ? (
          <span className="muted">leaf</span>
        ) : (
          <ProgressBar
            done={c.numCompletedSubProcesses}
            total={c.numSubProcesses}
            label={`Progress of child ${shortId(c.id)}`}
          />
        ),
    },
    { header: 'Created', cell: (c) => <TimeText iso={c.createdTime} /> },
    { header: 'Id', className: 'mono', cell: (c) => shortId(c.id) },
  ];
}

export function Children({ process, tenant }: { process: ProcessDetail; tenant: string }) {
  const api = useApi();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(25);
  const query = useLiveQuery(
    [tenant, 'processes', 'children', process.id, page, size],
    () => api.listProcesses({ parentId: process.id }, { page, size }),
    { enabled: !process.leaf },
  );
  if (process.leaf) return <Empty>A leaf has no children.</Empty>;
  const data = query.data;
  return (
    <>
      <ProgressBar
        done={process.numCompletedSubProcesses}
        total={process.numSubProcesses}
        percent={process.completedPercent}
        label="Children completed"
      />
      <DataTable
        label="Children"
        columns={childColumns(tenant)}
        rows={data?.content}
        rowKey={(c) => c.id}
        empty="No children yet."
        pagination={{ label: 'Children', page: data, onPage: setPage, onSize: (s) => (setSize(s), setPage(0)) }}
      />
    </>
  );
}

/** Parent, predecessor, successors and trigger of a process. */
export function Lineage({ process, tenant }: { process: ProcessDetail; tenant: string }) {
  const api = useApi();
  const successors = useLiveQuery([tenant, 'processes', 'successors', process.id], () =>
    api.listProcesses({ predecessorId: process.id }, { page: 0, size: 25 }),
  );
  return (
    <dl className="facts">
      <dt>Parent</dt>
      <dd>
        {process.parentId ? (
          <Link to={processPath(tenant, process.parentId)}>{shortId(process.parentId)}</Link>
        ) : (
          <span className="muted">none (a root)</span>
        )}
      </dd>
      <dt>Predecessor</dt>
      <dd>
        {process.predecessorId ? (
          <Link to={processPath(tenant, process.predecessorId)}>{shortId(process.predecessorId)}</Link>
        ) : (
          <span className="muted">none</span>
        )}
      </dd>
      <dt>Successors</dt>
      <dd>
        {successors.data && successors.data.content.length > 0 ? (
          <ul className="inline-list">
            {successors.data.content.map((s) => (
              <li key={s.id}>
                <Link to={processPath(tenant, s.id)}>
                  {s.processType} {shortId(s.id)}
                </Link>{' '}
                <StatusBadge status={s.status} />
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">{successors.data ? 'none' : '…'}</span>
        )}
      </dd>
      <dt>Trigger</dt>
      <dd>
        {process.triggerId ? (
          <>
            <Link to={tracePath(tenant, { triggerId: process.triggerId })}>{process.triggerId}</Link> ·{' '}
            <Link to={executionsPath(tenant, { triggerId: process.triggerId })}>its executions</Link>
          </>
        ) : (
          <span className="muted">none</span>
        )}
      </dd>
    </dl>
  );
}
