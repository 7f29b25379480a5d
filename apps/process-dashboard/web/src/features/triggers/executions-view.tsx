/**
 * Executions: the trigger history of every source (CRON, MANUAL, EXTERNAL), filtered by source,
 * status, process type, trigger id or crontab, newest first, with links into the trace and the
 * process started. Refreshes every 10 s.
 */
import { useMemo, useRef } from 'react';
import { Link } from 'react-router';
import {
  EXECUTION_STATUSES,
  TRIGGER_SOURCES,
  type Execution,
  type ExecutionFilter,
  type ExecutionStatus,
  type TriggerSource,
} from '../../api/types';
import { useListKeys } from '../../app/list-keys';
import { processPath, tenantPath, tracePath } from '../../app/paths';
import { useLiveQuery } from '../../app/preferences';
import { useSearchState } from '../../app/search-state';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorMessage } from '../../components/feedback';
import { LiveStatus } from '../../components/live-status';
import { StatusBadge } from '../../components/status';
import { formatDuration, shortId, TimeText } from '../../components/time';
import { useDefinitions } from '../definitions/use-definitions';
import { usePermissions } from '../session/permissions';
import { useApi } from '../session/session';

function pick<T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined {
  return allowed.includes(value as T) ? (value as T) : undefined;
}

/** The columns of the executions table; links stay in `tenant`. */
function executionColumns(tenant: string): Column<Execution>[] {
  return [
    {
      header: 'Received',
      cell: (e) => (
        <>
          <TimeText iso={e.receivedTime} />
          {e.scheduledTime && (
            <div className="muted small">
              scheduled <TimeText iso={e.scheduledTime} />
            </div>
          )}
        </>
      ),
    },
    { header: 'Source', cell: (e) => <span className={`source source-${e.source.toLowerCase()}`}>{e.source}</span> },
    {
      header: 'Trigger',
      className: 'mono',
      cell: (e) => (
        <Link
          to={tracePath(tenant, { triggerId: e.triggerId })}
          data-row-link=""
          aria-label={`Trace of trigger ${e.triggerId}`}
        >
          {e.triggerId}
        </Link>
      ),
    },
    { header: 'Process type', cell: (e) => e.payload.processDefName },
    {
      header: 'Status',
      cell: (e) => (
        <>
          <StatusBadge status={e.status} />
          {e.failureMessage && (
            <details>
              <summary>Failure</summary>
              <p>{e.failureMessage}</p>
            </details>
          )}
        </>
      ),
    },
    {
      header: 'Process',
      className: 'mono',
      cell: (e) =>
        e.processId ? (
          <Link to={processPath(tenant, e.processId)}>{shortId(e.processId)}</Link>
        ) : (
          <span className="muted">—</span>
        ),
    },
    {
      header: 'Took',
      cell: (e) =>
        e.startTime && e.finishTime ? (
          formatDuration(Date.parse(e.finishTime) - Date.parse(e.startTime))
        ) : (
          <span className="muted">—</span>
        ),
    },
  ];
}

/** The empty list; a role that may trigger gets links to do so. */
function NoExecutionMatches({ tenant, canTrigger }: { tenant: string; canTrigger: boolean }) {
  return (
    <>
      No execution matches.
      {canTrigger && (
        <>
          {' '}
          <Link to={tenantPath(tenant, 'trigger')}>Trigger a process</Link> or{' '}
          <Link to={tenantPath(tenant, 'cron')}>schedule one</Link>.
        </>
      )}
    </>
  );
}

function ExecutionFilters({
  filter,
  update,
}: {
  filter: ExecutionFilter;
  update(changes: Record<string, string | undefined>): void;
}) {
  const definitions = useDefinitions();
  return (
    <form className="filters" role="search" aria-label="Filter executions" onSubmit={(e) => e.preventDefault()}>
      <label>
        Source
        <select data-filter="" value={filter.source ?? ''} onChange={(e) => update({ source: e.target.value })}>
          <option value="">any</option>
          {TRIGGER_SOURCES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label>
        Status
        <select value={filter.status ?? ''} onChange={(e) => update({ status: e.target.value })}>
          <option value="">any</option>
          {EXECUTION_STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label>
        Process type
        <select value={filter.processType ?? ''} onChange={(e) => update({ processType: e.target.value })}>
          <option value="">any</option>
          {(definitions.data ?? []).map((d) => (
            <option key={d.processType}>{d.processType}</option>
          ))}
        </select>
      </label>
      {(filter.triggerId || filter.crontabId) && (
        <p className="chip">
          {filter.triggerId ? `trigger ${filter.triggerId}` : `crontab ${filter.crontabId}`}{' '}
          <button
            type="button"
            onClick={() => update({ triggerId: undefined, crontabId: undefined })}
            aria-label="Remove the trigger filter"
          >
            ×
          </button>
        </p>
      )}
    </form>
  );
}

export function ExecutionsView() {
  const api = useApi();
  const { can } = usePermissions();
  const { get, getInt, update } = useSearchState();
  const page = getInt('page', 0);
  const size = getInt('size', 25);
  const filter: ExecutionFilter = useMemo(
    () => ({
      source: pick<TriggerSource>(get('source'), TRIGGER_SOURCES),
      status: pick<ExecutionStatus>(get('status'), EXECUTION_STATUSES),
      processType: get('processType'),
      triggerId: get('triggerId'),
      crontabId: get('crontabId'),
    }),
    [get],
  );
  const query = useLiveQuery([api.tenant, 'executions', filter, page, size], () =>
    api.listExecutions(filter, { page, size }),
  );
  const data = query.data;
  const container = useRef<HTMLDivElement>(null);
  const goPage = (p: number) => update({ page: p }, { keepPage: true });
  useListKeys({ container, onPage: (d) => data && page + d >= 0 && page + d < data.totalPages && goPage(page + d) });

  return (
    <section aria-labelledby="executions-title">
      <div className="view-head">
        <h1 id="executions-title">Executions</h1>
        <LiveStatus
          updatedAt={query.dataUpdatedAt}
          fetching={query.isFetching}
          onRefresh={() => void query.refetch()}
        />
      </div>
      <ExecutionFilters filter={filter} update={update} />
      <ErrorMessage error={query.error} />
      <DataTable
        label="Executions, newest first"
        columns={executionColumns(api.tenant)}
        rows={data?.content}
        rowKey={(e) => e.id}
        loading="executions"
        error={query.error}
        empty={<NoExecutionMatches tenant={api.tenant} canTrigger={can('trigger')} />}
        wrapRef={container}
        pagination={{ label: 'Executions', page: data, onPage: goPage, onSize: (s) => update({ size: s }) }}
      />
    </section>
  );
}
