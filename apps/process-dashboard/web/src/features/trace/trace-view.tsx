/**
 * Causal graph and timeline of GET /trace (by process or by trigger). Above 1,000 nodes the API
 * answers 413: shown as a message with ways to narrow (the trigger's processes page by page, one
 * process, another id).
 */
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../api/client';
import { TRACE_EDGE_KINDS, type TraceGraph } from '../../api/types';
import { executionsPath, processPath, tenantPath, tracePath } from '../../app/paths';
import { useLiveQuery } from '../../app/preferences';
import { useSearchState } from '../../app/search-state';
import { ErrorMessage, Loading } from '../../components/feedback';
import { LiveStatus } from '../../components/live-status';
import { StatusBadge } from '../../components/status';
import { shortId } from '../../components/time';
import { useApi } from '../session/session';
import { EDGE_LOOK, nodeTarget } from './edges';
import { TimelineView } from './timeline-view';

const CausalGraph = lazy(() => import('./causal-graph'));

type By = { processId: string } | { triggerId: string };

function Legend() {
  return (
    <ul className="legend" aria-label="Edge kinds">
      {TRACE_EDGE_KINDS.map((kind) => {
        const look = EDGE_LOOK[kind];
        return (
          <li key={kind}>
            <svg width="44" height="10" aria-hidden="true">
              <line
                x1="0"
                y1="5"
                x2="44"
                y2="5"
                stroke={look.color}
                strokeWidth={look.width}
                strokeDasharray={look.dash}
              />
            </svg>
            <strong>{kind}</strong> {look.description}
          </li>
        );
      })}
    </ul>
  );
}

function TraceForm({ by }: { by: By | undefined }) {
  const navigate = useNavigate();
  const api = useApi();
  const [kind, setKind] = useState<'processId' | 'triggerId'>(by && 'triggerId' in by ? 'triggerId' : 'processId');
  const [value, setValue] = useState(by ? ('processId' in by ? by.processId : by.triggerId) : '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = value.trim();
    if (v) void navigate(tracePath(api.tenant, kind === 'processId' ? { processId: v } : { triggerId: v }));
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Open a trace">
      <label>
        Trace of
        <select value={kind} onChange={(e) => setKind(e.target.value as 'processId' | 'triggerId')}>
          <option value="processId">process id</option>
          <option value="triggerId">trigger id</option>
        </select>
      </label>
      <label>
        Id
        <input data-filter="" value={value} onChange={(e) => setValue(e.target.value)} size={40} spellCheck={false} />
      </label>
      <button type="submit">Open</button>
    </form>
  );
}

function TooLarge({ by, message }: { by: By; message: string }) {
  const api = useApi();
  return (
    <div className="notice" role="alert">
      <h2>This trace is too large to draw</h2>
      <p>The administration API draws at most 1,000 processes or completion events per trace ({message}). Narrow it:</p>
      <ul>
        {'triggerId' in by ? (
          <>
            <li>
              <Link to={`${tenantPath(api.tenant, 'processes')}?trigger=${encodeURIComponent(by.triggerId)}&roots=1`}>
                List the root processes of this trigger
              </Link>
              , page by page, and open the trace of one of them;
            </li>
            <li>
              <Link to={executionsPath(api.tenant, { triggerId: by.triggerId })}>see the trigger's executions</Link>;
            </li>
          </>
        ) : (
          <li>
            <Link to={processPath(api.tenant, by.processId)}>open the process</Link> and walk its children page by page;
          </li>
        )}
        <li>or open the trace of another process id below.</li>
      </ul>
    </div>
  );
}

function NodeList({ graph, tenant }: { graph: TraceGraph; tenant: string }) {
  return (
    <details className="node-list">
      <summary>All {graph.nodes.length} nodes as a list</summary>
      <ul>
        {graph.nodes.map((n) => {
          const target = nodeTarget(n);
          const href =
            target === undefined
              ? undefined
              : 'processId' in target
                ? processPath(tenant, target.processId)
                : executionsPath(tenant, { triggerId: target.triggerId });
          return (
            <li key={n.id}>
              {n.kind.toLowerCase()}: {href ? <Link to={href}>{n.label}</Link> : n.label}{' '}
              {n.kind === 'PROCESS' && <span className="mono small">{shortId(n.id)}</span>}{' '}
              <StatusBadge status={n.status} />
            </li>
          );
        })}
      </ul>
    </details>
  );
}

/** Graph or timeline, with the size of the trace; `undefined` is the graph (the default view). */
function ViewTabs({
  view,
  graph,
  onView,
}: {
  view: 'graph' | 'timeline';
  graph: TraceGraph;
  onView(view: 'timeline' | undefined): void;
}) {
  return (
    <div className="tabs" role="group" aria-label="Trace view">
      <button type="button" aria-pressed={view === 'graph'} onClick={() => onView(undefined)}>
        Causal graph
      </button>
      <button type="button" aria-pressed={view === 'timeline'} onClick={() => onView('timeline')}>
        Timeline
      </button>
      <span className="muted">
        {graph.nodes.length} nodes, {graph.edges.length} edges
      </span>
    </div>
  );
}

export function TraceView() {
  const api = useApi();
  const navigate = useNavigate();
  const { get, update } = useSearchState();
  const processId = get('processId');
  const triggerId = get('triggerId');
  const view = get('view') === 'timeline' ? 'timeline' : 'graph';
  const by: By | undefined = processId ? { processId } : triggerId ? { triggerId } : undefined;
  const query = useLiveQuery([api.tenant, 'trace', processId ?? null, triggerId ?? null], () => api.trace(by as By), {
    enabled: by !== undefined,
  });
  const graph = query.data;
  const tooLarge = isApiError(query.error) && query.error.status === 413 ? query.error : undefined;
  const open = (target: By) =>
    navigate(
      'processId' in target
        ? processPath(api.tenant, target.processId)
        : executionsPath(api.tenant, { triggerId: target.triggerId }),
    );

  return (
    <section aria-labelledby="trace-title">
      <div className="view-head">
        <h1 id="trace-title">
          Trace{' '}
          {by ? (
            <span className="mono small">
              {'processId' in by ? `of process ${by.processId}` : `of trigger ${by.triggerId}`}
            </span>
          ) : null}
        </h1>
        {by && (
          <LiveStatus
            updatedAt={query.dataUpdatedAt}
            fetching={query.isFetching}
            onRefresh={() => void query.refetch()}
          />
        )}
      </div>
      <TraceForm by={by} key={processId ?? triggerId ?? ''} />
      {!by && (
        <p className="muted">Give a process id or a trigger id, or open a trace from a process or an execution.</p>
      )}
      {tooLarge && by && <TooLarge by={by} message={tooLarge.message} />}
      {!tooLarge && <ErrorMessage error={query.error} />}
      {by && !graph && !query.error && <Loading what="the trace" />}
      {graph && !tooLarge && (
        <>
          <ViewTabs view={view} graph={graph} onView={(v) => update({ view: v }, { keepPage: true })} />
          {view === 'graph' ? (
            <>
              <Suspense fallback={<Loading what="the graph" />}>
                <CausalGraph graph={graph} onOpen={open} focusId={processId} />
              </Suspense>
              <Legend />
              <NodeList graph={graph} tenant={api.tenant} />
            </>
          ) : (
            <TimelineView graph={graph} tenant={api.tenant} />
          )}
        </>
      )}
    </section>
  );
}
