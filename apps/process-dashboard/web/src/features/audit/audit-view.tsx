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
import { Empty, ErrorMessage, Loading } from '../../components/feedback';
import { LiveStatus } from '../../components/live-status';
import { Pagination } from '../../components/pagination';
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

function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td>
        <TimeText iso={entry.time} />
      </td>
      <td className="mono">{entry.actor}</td>
      <td>{entry.credential === 'key' ? 'key' : 'token'}</td>
      <td className="mono">{entry.action}</td>
      <td className="mono">{entry.target ?? <span className="muted">—</span>}</td>
      <td>
        <span className={`badge badge-${OUTCOME_TONE[entry.outcome]}`}>{entry.outcome}</span>
      </td>
      <td className="mono">{entry.requestId}</td>
    </tr>
  );
}

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
      <div className="table-wrap">
        {!data && !query.error && <Loading what="the audit trail" />}
        {data && data.content.length === 0 && <Empty>No change matches.</Empty>}
        {data && data.content.length > 0 && (
          <table className="grid" aria-label="Audit trail, newest first">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Actor</th>
                <th scope="col">Credential</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Outcome</th>
                <th scope="col">Request id</th>
              </tr>
            </thead>
            <tbody>
              {data.content.map((entry) => (
                <AuditRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        )}
      </div>
      <Pagination
        label="Audit"
        page={data}
        onPage={(p) => update({ page: String(p) }, { keepPage: true })}
        onSize={(s) => update({ size: String(s) })}
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
