/**
 * Cron: the tenant's ProcessCreate schedules with their expression in words; enable, disable,
 * edit, delete. Writes refused by the server (503 without scheduler, 409, 400) are shown.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Crontab } from '../../api/types';
import { executionsPath, tenantPath } from '../../app/paths';
import { useLiveQuery } from '../../app/preferences';
import { Empty, ErrorMessage, Loading } from '../../components/feedback';
import { LiveStatus } from '../../components/live-status';
import { Pagination } from '../../components/pagination';
import { TimeText } from '../../components/time';
import { usePermissions } from '../session/permissions';
import { useApi } from '../session/session';
import { previewCron } from './cron-preview';

function CronRow({ c, onToggle, onDelete, busy }: { c: Crontab; onToggle(): void; onDelete(): void; busy: boolean }) {
  const api = useApi();
  const { can } = usePermissions();
  const preview = previewCron(c.cronExpression, c.timezone, 1);
  return (
    <tr>
      <td>
        <Link to={tenantPath(api.tenant, `cron/${c.id}`)} data-row-link="">
          {c.name}
        </Link>
      </td>
      <td>
        <code>{c.cronExpression}</code>
        <div className="small muted">{preview.ok ? `${preview.words} (${c.timezone})` : preview.error}</div>
      </td>
      <td>{c.payload.processDefName}</td>
      <td>
        {c.enabled ? (
          <span className="badge badge-ok">enabled</span>
        ) : (
          <span className="badge badge-none">disabled</span>
        )}
      </td>
      <td>
        <TimeText iso={c.lastFiredAt} />
      </td>
      <td className="actions">
        {can('updateCrontab') && (
          <button
            type="button"
            onClick={onToggle}
            disabled={busy}
            aria-label={`${c.enabled ? 'Disable' : 'Enable'} ${c.name}`}
          >
            {c.enabled ? 'Disable' : 'Enable'}
          </button>
        )}
        <Link to={executionsPath(api.tenant, { crontabId: c.id })} aria-label={`Executions of ${c.name}`}>
          executions
        </Link>
        {can('deleteCrontab') && (
          <button type="button" className="danger" onClick={onDelete} disabled={busy} aria-label={`Delete ${c.name}`}>
            Delete
          </button>
        )}
      </td>
    </tr>
  );
}

export function CronListView() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { can } = usePermissions();
  const [page, setPage] = useState(0);
  const info = useQuery({ queryKey: [api.tenant, 'info'], queryFn: () => api.info(), staleTime: 60_000 });
  const query = useLiveQuery([api.tenant, 'crontabs', page], () => api.listCrontabs({ page, size: 25 }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: [api.tenant, 'crontabs'] });
  const toggle = useMutation({
    mutationFn: (c: Crontab) => api.updateCrontab(c.id, { enabled: !c.enabled }),
    onSuccess: invalidate,
  });
  const remove = useMutation({ mutationFn: (c: Crontab) => api.deleteCrontab(c.id), onSuccess: invalidate });
  const data = query.data;
  return (
    <section aria-labelledby="cron-title">
      <div className="view-head">
        <h1 id="cron-title">Cron schedules</h1>
        <LiveStatus
          updatedAt={query.dataUpdatedAt}
          fetching={query.isFetching}
          onRefresh={() => void query.refetch()}
        />
      </div>
      {info.data && !info.data.cronAvailable && (
        <p className="notice" role="status">
          This server has no cron scheduler: schedules can be read but not changed (writes answer 503).
        </p>
      )}
      {can('addCrontab') && (
        <p className="actions">
          <Link to={tenantPath(api.tenant, 'cron/new')} className="button primary">
            New schedule
          </Link>
        </p>
      )}
      <ErrorMessage error={toggle.error ?? remove.error} />
      <ErrorMessage error={query.error} />
      {!data && !query.error && <Loading what="schedules" />}
      {data && data.content.length === 0 && <Empty>No schedule in this tenant yet.</Empty>}
      {data && data.content.length > 0 && (
        <div className="table-wrap">
          <table className="grid" aria-label="Cron schedules">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Expression</th>
                <th scope="col">Starts</th>
                <th scope="col">State</th>
                <th scope="col">Last fired</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.content.map((c) => (
                <CronRow
                  key={c.id}
                  c={c}
                  busy={toggle.isPending || remove.isPending}
                  onToggle={() => toggle.mutate(c)}
                  onDelete={() => window.confirm(`Delete the schedule ${c.name}?`) && remove.mutate(c)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination label="Schedules" page={data} onPage={setPage} />
    </section>
  );
}
