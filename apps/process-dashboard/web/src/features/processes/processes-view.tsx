/**
 * Processes: the tenant's processes newest first, a page of the API at a time, with filters in the
 * URL and a roots-only mode whose rows expand into their children. Refreshes every 10 s; after a
 * tree was deleted from its detail, says which.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { ProcessFilter } from '../../api/types';
import { useListKeys } from '../../app/list-keys';
import { tenantPath } from '../../app/paths';
import { useLiveQuery } from '../../app/preferences';
import { useSearchState } from '../../app/search-state';
import { ErrorMessage } from '../../components/feedback';
import { LiveStatus } from '../../components/live-status';
import { usePermissions } from '../session/permissions';
import { useApi } from '../session/session';
import type { RemovedNotice } from './delete-tree';
import { ProcessFilters, type ProcessFilterValues } from './process-filters';
import { ProcessTable } from './process-table';

/** The roots whose children are shown, and the toggle of one. */
function useExpandedRows() {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback((id: string) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  return { expanded, toggle };
}

/** The empty list; a role that may trigger gets a link to do so. */
function NoProcessMatches({ tenant, canTrigger }: { tenant: string; canTrigger: boolean }) {
  return (
    <>
      No process matches.
      {canTrigger && (
        <>
          {' '}
          <Link to={tenantPath(tenant, 'trigger')}>Trigger one</Link>.
        </>
      )}
    </>
  );
}

/** What the process detail said it removed before coming back here (router state), if anything. */
function useRemovedNotice(): string | undefined {
  const state: unknown = useLocation().state;
  return state !== null && typeof state === 'object' ? (state as Partial<RemovedNotice>).removed : undefined;
}

export function ProcessesView() {
  const api = useApi();
  const removed = useRemovedNotice();
  const { can } = usePermissions();
  const { get, getInt, update } = useSearchState();
  const values: ProcessFilterValues = {
    type: get('type'),
    status: get('status'),
    trigger: get('trigger'),
    q: get('q'),
    roots: get('roots') === '1',
  };
  const page = getInt('page', 0);
  const size = getInt('size', 25);
  const filter: ProcessFilter = useMemo(
    () => ({
      processType: values.type,
      status: values.status,
      triggerId: values.trigger,
      q: values.q,
      roots: values.roots || undefined,
    }),
    [values.type, values.status, values.trigger, values.q, values.roots],
  );
  const query = useLiveQuery([api.tenant, 'processes', filter, page, size], () =>
    api.listProcesses(filter, { page, size }),
  );
  const { expanded, toggle } = useExpandedRows();
  const container = useRef<HTMLDivElement>(null);
  const data = query.data;
  const goPage = (p: number) => update({ page: p }, { keepPage: true });
  useListKeys({
    container,
    onToggle: values.roots ? toggle : undefined,
    onPage: (delta) => data && page + delta >= 0 && page + delta < data.totalPages && goPage(page + delta),
  });

  return (
    <section aria-labelledby="processes-title">
      <div className="view-head">
        <h1 id="processes-title">Processes</h1>
        <LiveStatus
          updatedAt={query.dataUpdatedAt}
          fetching={query.isFetching}
          onRefresh={() => void query.refetch()}
        />
      </div>
      <ProcessFilters
        values={values}
        onApply={(v) =>
          update({
            type: v.type,
            status: v.status,
            trigger: v.trigger?.trim(),
            q: v.q?.trim(),
            roots: v.roots ? '1' : undefined,
          })
        }
      />
      {removed && (
        <p className="notice" role="status">
          {removed}
        </p>
      )}
      <ErrorMessage error={query.error} />
      <ProcessTable
        rows={data?.content}
        tenant={api.tenant}
        expandable={values.roots}
        expanded={expanded}
        onToggle={toggle}
        caption="Processes, newest first"
        loading="processes"
        error={query.error}
        empty={<NoProcessMatches tenant={api.tenant} canTrigger={can('trigger')} />}
        wrapRef={container}
        pagination={{ label: 'Processes', page: data, onPage: goPage, onSize: (s) => update({ size: s }) }}
      />
    </section>
  );
}
