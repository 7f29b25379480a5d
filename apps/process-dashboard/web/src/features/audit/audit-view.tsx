/**
 * Audit: the changes made through the administration API in this tenant — who, what, the target,
 * when, the outcome (done, refused by the role or tenant scope, failed) and the request id —
 * newest first, filtered by actor, action and a time window kept in the URL. Admin role only (the
 * view says so to others). Refreshes every 10 s.
 */
import { useMemo, useState, type FormEvent } from 'react';
import type { AuditEntry, AuditFilter } from '../../api/types';
import { useLiveQuery } from '../../app/preferences';
import { useSearchState } from '../../app/search-state';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorMessage } from '../../components/feedback';
import { LiveStatus } from '../../components/live-status';
import { TimeText } from '../../components/time';
import { usePermissions } from '../session/permissions';
import { useApi } from '../session/session';

/** The changes the trail records, by the API's operation names. */
export const AUDITED_ACTIONS = [
  'trigger',
  'addCrontab',
  'updateCrontab',
  'deleteCrontab',
  'addDefinition',
  'updateDefinition',
  'deleteDefinition',
  'refreshDefinitions',
  'deleteProcess',
] as const;

/** A `datetime-local` value (the browser's zone) as an ISO instant; undefined when empty or invalid. */
export function instantOf(local: string | undefined): string | undefined {
  if (!local) return undefined;
  const time = new Date(local).getTime();
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

const OUTCOME_TONE: Record<AuditEntry['outcome'], string> = { ok: 'ok', refused: 'bad', failed: 'bad' };
const CREDENTIAL_LABELS: Record<NonNullable<AuditEntry['credential']> | 'none', string> = {
  key: 'key',
  jwt: 'token',
  none: 'none',
};

const AUDIT_COLUMNS: Column<AuditEntry>[] = [
  { header: 'Time', cell: (entry) => <TimeText iso={entry.time} /> },
  { header: 'Actor', cell: (entry) => entry.actor, className: 'mono' },
  // null: a write refused before any credential was presented.
  { header: 'Credential', cell: (entry) => CREDENTIAL_LABELS[entry.credential ?? 'none'] },
  { header: 'Action', cell: (entry) => entry.action, className: 'mono' },
  { header: 'Target', cell: (entry) => entry.target ?? <span className="muted">—</span>, className: 'mono' },
  {
    header: 'Outcome',
    cell: (entry) => <span className={`badge badge-${OUTCOME_TONE[entry.outcome]}`}>{entry.outcome}</span>,
  },
  { header: 'Request id', cell: (entry) => entry.requestId, className: 'mono' },
];

function AuditFilters({
  get,
  update,
}: {
  get(name: string): string | undefined;
  update(changes: Record<string, string | undefined>): void;
}) {
  const [actor, setActor] = useState(get('actor') ?? '');
  function submit(event: FormEvent) {
    event.preventDefault();
    update({ actor: actor.trim() });
  }
  return (
    <form className="filters" role="search" aria-label="Filter the audit trail" onSubmit={submit}>
      <label>
        Actor
        <input
          data-filter=""
          value={actor}
          onChange={(e) => setActor(e.target.value)}
          placeholder="jwt:alice or key:…"
          spellCheck={false}
        />
      </label>
      <label>
        Action
        <select value={get('action') ?? ''} onChange={(e) => update({ action: e.target.value })}>
          <option value="">any</option>
          {AUDITED_ACTIONS.map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
      </label>
      <label>
        From
        <input type="datetime-local" value={get('from') ?? ''} onChange={(e) => update({ from: e.target.value })} />
      </label>
      <label>
        To
        <input type="datetime-local" value={get('to') ?? ''} onChange={(e) => update({ to: e.target.value })} />
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}

function AuditTable() {
  const api = useApi();
  const { get, getInt, update } = useSearchState();
  const page = getInt('page', 0);
  const size = getInt('size', 25);
  const filter: AuditFilter = useMemo(
    () => ({ actor: get('actor'), action: get('action'), from: instantOf(get('from')), to: instantOf(get('to')) }),
    [get],
  );
  const query = useLiveQuery([api.tenant, 'audit', filter, page, size], () => api.listAudit(filter, { page, size }));
  const data = query.data;
  return (
    <>
      <div className="view-head">
        <h1 id="audit-title">Audit</h1>
        <LiveStatus
          updatedAt={query.dataUpdatedAt}
          fetching={query.isFetching}
          onRefresh={() => void query.refetch()}
        />
      </div>
      <AuditFilters get={get} update={update} />
      <ErrorMessage error={query.error} />
      <DataTable
        label="Audit trail, newest first"
        columns={AUDIT_COLUMNS}
        rows={data?.content}
        rowKey={(entry) => entry.id}
        loading="the audit trail"
        error={query.error}
        empty="No change matches."
        pagination={{
          label: 'Audit',
          page: data,
          onPage: (p) => update({ page: String(p) }, { keepPage: true }),
          onSize: (s) => update({ size: String(s) }),
        }}
      />
    </>
  );
}

export function AuditView() {
  const { can } = usePermissions();
  return (
    <section aria-labelledby="audit-title">
      {can('listAudit') ? (
        <AuditTable />
      ) : (
        <>
          <h1 id="audit-title">Audit</h1>
          <p className="muted">The audit trail needs the admin role.</p>
        </>
      )}
    </section>
  );
}
