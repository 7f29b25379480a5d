/**
 * Health: per process type of the tenant, over the last hour — the processes finished (succeeded
 * and failed, in all and as a bar per 5 minutes), the work items pending, running and dead now by
 * worker type, how long the oldest due item has waited, and the due-to-finish time of the work
 * items finished (p50/p95). Read from `GET /health` (the server's own tables, no metrics backend);
 * refreshes every 10 s like the other views.
 */
import type { HealthBacklog, HealthRow } from '../../api/types';
import { useLiveQuery } from '../../app/preferences';
import { Empty, ErrorMessage, Loading } from '../../components/feedback';
import { LiveStatus } from '../../components/live-status';
import { formatDuration } from '../../components/time';
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

function HealthTableRow({ row, bucketMinutes }: { row: HealthRow; bucketMinutes: number }) {
  return (
    <tr>
      <th scope="row" className="mono">
        {row.processType}
      </th>
      <td className="num">{row.succeeded}</td>
      <td className="num">{row.failed > 0 ? <span className="badge badge-bad">{row.failed}</span> : 0}</td>
      <td>
        <ThroughputSparkline buckets={row.throughput} bucketMinutes={bucketMinutes} />
      </td>
      <td>
        <BacklogCell backlog={row.backlog} />
      </td>
      <td className="num">{formatSeconds(row.oldestDueSeconds)}</td>
      <td className="num" title={`${row.waitSamples} work items finished in the last hour`}>
        {formatSeconds(row.waitP50Seconds)} / {formatSeconds(row.waitP95Seconds)}
      </td>
    </tr>
  );
}

export function HealthView() {
  const api = useApi();
  const query = useLiveQuery([api.tenant, 'health'], () => api.health());
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
        being due to it finishing (the claim time is not kept once an item is done).
      </p>
      <ErrorMessage error={query.error} />
      <div className="table-wrap">
        {!data && !query.error && <Loading what="the health figures" />}
        {data && data.processTypes.length === 0 && <Empty>Nothing finished or waiting in the last hour.</Empty>}
        {data && data.processTypes.length > 0 && (
          <table className="grid" aria-label="Health per process type, last hour">
            <thead>
              <tr>
                <th scope="col">Process type</th>
                <th scope="col">Succeeded</th>
                <th scope="col">Failed</th>
                <th scope="col">Finished per {bucketMinutes} min</th>
                <th scope="col">Work items now</th>
                <th scope="col">Oldest due</th>
                <th scope="col">Wait p50 / p95</th>
              </tr>
            </thead>
            <tbody>
              {data.processTypes.map((row) => (
                <HealthTableRow key={row.processType} row={row} bucketMinutes={bucketMinutes} />
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
