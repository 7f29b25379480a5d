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
import { DataTable, type Column } from '../../components/data-table';
import { ErrorMessage } from '../../components/feedback';
import { LiveStatus } from '../../components/live-status';
import { TimeText } from '../../components/time';
import { usePermissions } from '../session/permissions';
import { useApi } from '../session/session';
import { previewCron } from './cron-preview';

/** What the actions column needs: the tenant, what the role may do, and the writes. */
interface CronActions {
  tenant: string;
  can(operation: string): boolean;
  busy: boolean;
  onToggle(c: Crontab): void;
  onDelete(c: Crontab): void;
}

function ActionsCell({ c, actions }: { c: Crontab; actions: CronActions }) {
  return (
    <>
      {actions.can('updateCrontab') && (
        <button
          type="button"
          onClick={() => actions.onToggle(c)}
          disabled={actions.busy}
          aria-label={`${c.enabled ? 'Disable' : 'Enable'} ${c.name}`}
        >
          {c.enabled ? 'Disable' : 'Enable'}
        </button>
      )}
      <Link to={executionsPath(actions.tenant, { crontabId: c.id })} aria-label={`Executions of ${c.name}`}>
        executions
      </Link>
      {actions.can('deleteCrontab') && (
        <button
          type="button"
          className="danger"
          onClick={() => actions.onDelete(c)}
          disabled={actions.busy}
          aria-label={`Delete ${c.name}`}
        >
          Delete
        </button>
      )}
    </>
  );
}

function ExpressionCell({ c }: { c: Crontab }) {
  const preview = previewCron(c.cronExpression, c.timezone, 1);
  return (
    <>
      <code>{c.cronExpression}</code>
      <div className="small muted">{preview.ok ? `${preview.words} (${c.timezone})` : preview.error}</div>
    </>
  );
}

function cronColumns(actions: CronActions): Column<Crontab>[] {
  return [
    {
      header: 'Name',
      cell: (c) => (
        <Link to={tenantPath(actions.tenant, `cron/${c.id}`)} data-row-link="">
          {c.name}
        </Link>
      ),
    },
    { header: 'Expression', cell: (c) => <ExpressionCell c={c} /> },
    { header: 'Starts', cell: (c) => c.payload.processDefName },
    {
      header: 'State',
      cell: (c) =>
        c.enabled ? (
          <span className="badge badge-ok">enabled</span>
        ) : (
          <span className="badge badge-none">disabled</span>
        ),
    },
    { header: 'Last fired', cell: (c) => <TimeText iso={c.lastFiredAt} /> },
    { header: 'Actions', className: 'actions', cell: (c) => <ActionsCell c={c} actions={actions} /> },
  ];
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
      <DataTable
        label="Cron schedules"
        columns={cronColumns({
          tenant: api.tenant,
          can,
          busy: toggle.isPending || remove.isPending,
          onToggle: (c) => toggle.mutate(c),
          onDelete: (c) => window.confirm(`Delete the schedule ${c.name}?`) && remove.mutate(c),
        })}
        rows={data?.content}
        rowKey={(c) => c.id}
        loading="schedules"
        error={query.error}
        empty="No schedule in this tenant yet."
        pagination={{ label: 'Schedules', page: data, onPage: setPage }}
      />
    </section>
  );
}
