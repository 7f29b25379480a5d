/**
 * One process: facts, progress, lineage (parent, predecessor, successors, trigger), input and
 * output, errors with folded stack traces, completion events and its children page by page; a
 * finished root can be deleted with its tree (admin). Refreshes every 10 s; open panels stay open.
 * Once the server answers 404 (removed by the history sweeper, from another window, or by a
 * removal refused because it was already gone), the view says so once and shows nothing stale.
 */
import { Link, useParams } from 'react-router';
import type { ProcessDetail } from '../../api/types';
import { isApiError } from '../../api/client';
import { processPath, tenantPath, tracePath } from '../../app/paths';
import { useLiveQuery } from '../../app/preferences';
import { ErrorMessage, Loading } from '../../components/feedback';
import { JsonBlock } from '../../components/json-block';
import { LiveStatus } from '../../components/live-status';
import { StatusBadge } from '../../components/status';
import { formatDuration, TimeText } from '../../components/time';
import { useApi } from '../session/session';
import { DeleteTree, deleteRefusal } from './delete-tree';
import { Children, CompletionEvents, ErrorList, Lineage } from './process-sections';

function Facts({ p }: { p: ProcessDetail }) {
  return (
    <section aria-labelledby="facts-title" className="card">
      <h2 id="facts-title">Facts</h2>
      <dl className="facts">
        <dt>State</dt>
        <dd>
          {p.state.stateId} <span className="muted">(flow {p.state.flowId})</span>
        </dd>
        <dt>Created</dt>
        <dd>
          <TimeText iso={p.createdTime} />
        </dd>
        <dt>Last change</dt>
        <dd>
          <TimeText iso={p.lastModifiedTime} />{' '}
          <span className="muted">
            ({formatDuration(Date.parse(p.lastModifiedTime) - Date.parse(p.createdTime))} after creation)
          </span>
        </dd>
        <dt>In state since</dt>
        <dd>
          <TimeText iso={p.stateEntryTime} />
        </dd>
        <dt>Kind</dt>
        <dd>{p.leaf ? 'leaf' : `parent, split ${p.splitCompleted ? 'completed' : 'not completed'}`}</dd>
        <dt>Description</dt>
        <dd>{p.description ?? <span className="muted">none</span>}</dd>
        <dt>Version</dt>
        <dd>{p.version}</dd>
      </dl>
    </section>
  );
}

/**
 * A process the server no longer has in this tenant (404): said once, with the way back, and none
 * of what an earlier read showed (its facts and children would be out of date).
 */
function ProcessGone({ error }: { error: unknown }) {
  const api = useApi();
  const { title, hint } = deleteRefusal(error);
  return (
    <div className="error" role="alert">
      <p>{title}</p>
      <p>
        {hint} <Link to={tenantPath(api.tenant, 'processes')}>Back to the processes</Link>
      </p>
    </div>
  );
}

export function ProcessDetailView() {
  const { id = '' } = useParams();
  const api = useApi();
  const query = useLiveQuery([api.tenant, 'process', id], () => api.getProcess(id));
  const gone = isApiError(query.error) && query.error.status === 404;
  const p = query.data?.id === id && !gone ? query.data : undefined;
  return (
    <section aria-labelledby="process-title">
      <div className="view-head">
        <h1 id="process-title">
          {p ? p.processType : 'Process'} <span className="mono small">{id}</span>
        </h1>
        <LiveStatus
          updatedAt={query.dataUpdatedAt}
          fetching={query.isFetching}
          onRefresh={() => void query.refetch()}
        />
      </div>
      {gone ? <ProcessGone error={query.error} /> : <ErrorMessage error={query.error} />}
      {!p && !query.error && <Loading what="the process" />}
      {p && (
        <>
          <div className="actions detail-actions">
            <StatusBadge status={p.status} /> <Link to={tracePath(api.tenant, { processId: p.id })}>Causal graph</Link>{' '}
            · <Link to={tracePath(api.tenant, { processId: p.id }, 'timeline')}>Timeline</Link>
            {p.parentId && (
              <>
                {' '}
                · <Link to={processPath(api.tenant, p.parentId)}>Up to the parent</Link>
              </>
            )}
            <DeleteTree process={p} />
          </div>
          <div className="two-col">
            <Facts p={p} />
            <section aria-labelledby="lineage-title" className="card">
              <h2 id="lineage-title">Lineage</h2>
              <Lineage process={p} tenant={api.tenant} />
            </section>
          </div>
          <section aria-labelledby="children-title" className="card">
            <h2 id="children-title">Children</h2>
            <Children process={p} tenant={api.tenant} />
          </section>
          <div className="two-col">
            <section aria-labelledby="input-title" className="card">
              <h2 id="input-title">Input</h2>
              <JsonBlock value={p.input} label="Input" />
            </section>
            <section aria-labelledby="output-title" className="card">
              <h2 id="output-title">Output</h2>
              <JsonBlock value={p.output} label="Output" />
            </section>
          </div>
          <section aria-labelledby="errors-title" className="card">
            <h2 id="errors-title">Errors ({p.errors.length})</h2>
            <ErrorList errors={p.errors} tenant={api.tenant} selfId={p.id} />
          </section>
          <section aria-labelledby="events-title" className="card">
            <h2 id="events-title">Completion events</h2>
            <CompletionEvents events={p.completionEvents} tenant={api.tenant} />
          </section>
        </>
      )}
    </section>
  );
}
