/**
 * Health: per process type of the tenant, over the last hour — the processes finished (succeeded
 * and failed, in all and as a bar per 5 minutes), the work items pending, running and dead now by
 * worker type with the definition's limits beside them (marked when the tenant's RUNNING items
 * fill its per-tenant limit), how long the oldest due item has waited, and the due-to-claim wait
 * of the work items finished (p50/p95). Read from `GET /health` (the server's own tables, no
 * metrics backend) and the definitions; refreshes every 10 s like the other views.
 */
import type { HealthBacklog, HealthRow, ProcessDef } from '../../api/types';
import { useLiveQuery } from '../../app/preferences';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorMessage } from '../../components/feedback';
import { LiveStatus } from '../../components/live-status';
import { formatDuration } from '../../components/time';
import { atTenantLimit, limitsText } from '../definitions/definition-limits';
import { useDefinitions } from '../definitions/use-definitions';
import { useApi } from '../session/session';
import { ThroughputSparkline } from './throughput-sparkline';

/** Seconds as a duration, a dash when there is none. */
export function formatSeconds(seconds: number | null): string {
  return seconds === null ? '—' : formatDuration(seconds * 1000);
}

function BacklogCell({ backlog }: { backlog: readonly HealthBacklog[] }) {
  if (backlog.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="backlog">
      {backlog.map((b) => (
        <li key={b.workerType}>
          <span className="mono">{b.workerType}</span>: {b.pending} pending, {b.running} running
          {b.dead > 0 ? (
            <>
              , <span className="badge badge-bad">{b.dead} dead</span>
            </>
          ) : (
            ', 0 dead'
          )}
        </li>
      ))}
    </ul>
  );
}

/** The definition's limits under its backlog; "at its limit" when the tenant's RUNNING items fill the per-tenant one. */
function LimitsLine({ def, running }: { def: ProcessDef | undefined; running: number }) {
  const text = def === undefined ? undefined : limitsText(def);
  if (def === undefined || text === undefined) return null;
  return (
    <div className="small muted">
      limits: {text}
      {atTenantLimit(def, running) ? (
        <>
          {' '}
          · <span className="badge">at its limit</span>
        </>
      ) : null}
    </div>
  );
}

function healthColumns(bucketMinutes: number, defs: ReadonlyMap<string, ProcessDef>): Column<HealthRow>[] {
  return [
    { header: 'Process type', rowHeader: true, className: 'mono', cell: (row) => row.processType },
    { header: 'Succeeded', className: 'num', cell: (row) => row.succeeded },
    {
      header: 'Failed',
      className: 'num',
      cell: (row) => (row.failed > 0 ? <span className="badge badge-bad">{row.failed}</span> : 0),
    },
    {
      header: `Finished per ${bucketMinutes} min`,
      cell: (row) => <ThroughputSparkline buckets={row.throughput} bucketMinutes={bucketMinutes} />,
    },
    {
      header: 'Work items now',
      cell: (row) => (
        <>
          <BacklogCell backlog={row.backlog} />
          <LimitsLine def={defs.get(row.processType)} running={row.backlog.reduce((sum, b) => sum + b.running, 0)} />
        </>
      ),
    },
    { header: 'Oldest due', className: 'num', cell: (row) => formatSeconds(row.oldestDueSeconds) },
    {
      header: 'Wait p50 / p95',
      className: 'num',
      cell: (row) => `${formatSeconds(row.waitP50Seconds)} / ${formatSeconds(row.waitP95Seconds)}`,
      cellProps: (row) => ({ title: `${row.waitSamples} work items finished in the last hour` }),
    },
  ];
}

export function HealthView() {
  const api = useApi();
  const query = useLiveQuery([api.tenant, 'health'], () => api.health());
  // Limits beside the backlog; without the definitions (an error, still loading) the rows show none.
  const definitions = useDefinitions().data;
  const defs = new Map((definitions ?? []).map((d) => [d.processType, d]));
  const data = query.data;
  const bucketMinutes = (data?.bucketSeconds ?? 300) / 60;
  return (
    <section aria-labelledby="health-title">
      <div className="view-head">
        <h1 id="health-title">Health</h1>
        <LiveStatus
          updatedAt={query.dataUpdatedAt}
          fetching={query.isFetching}
          onRefresh={() => void query.refetch()}
        />
      </div>
      <p className="muted">
        The last hour of tenant {api.tenant}, per process type, from the server&apos;s tables. Wait is from a work item
        being due to a worker claiming it.
      </p>
      <ErrorMessage error={query.error} />
      <DataTable
        label="Health per process type, last hour"
        columns={healthColumns(bucketMinutes, defs)}
        rows={data?.processTypes}
        rowKey={(row) => row.processType}
        loading="the health figures"
        error={query.error}
        empty="Nothing finished or waiting in the last hour."
      />
    </section>
  );
}
