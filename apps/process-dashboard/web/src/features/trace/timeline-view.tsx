/** The timeline of a trace: bars from creation to completion, grouped by tree. */
import { Link } from 'react-router';
import type { TraceGraph } from '../../api/types';
import { processPath } from '../../app/paths';
import { Empty } from '../../components/feedback';
import { formatDuration, formatTime, shortId } from '../../components/time';
import { buildTimeline } from './timeline';

/** Bars shown per tree before "and n more" (a 1,000-node trace stays readable and fast). */
const BARS_PER_GROUP = 60;

export function TimelineView({ graph, tenant }: { graph: TraceGraph; tenant: string }) {
  const timeline = buildTimeline(graph);
  if (timeline.groups.length === 0) return <Empty>No process in this trace.</Empty>;
  const span = timeline.end - timeline.start;
  return (
    <div className="timeline" role="region" aria-label="Timeline">
      <p className="muted">
        From {formatTime(new Date(timeline.start).toISOString())} to {formatTime(new Date(timeline.end).toISOString())}{' '}
        ({formatDuration(span)})
      </p>
      {timeline.groups.map((g) => (
        <section
          key={g.root.id}
          className="timeline-group"
          aria-label={`Tree of ${g.root.label} ${shortId(g.root.id)}`}
        >
          <h3>
            {g.root.label} <span className="mono small">{shortId(g.root.id)}</span>
          </h3>
          <ul>
            {g.bars.slice(0, BARS_PER_GROUP).map((b) => {
              const left = ((b.start - timeline.start) / span) * 100;
              const width = Math.max(0.4, ((b.end - b.start) / span) * 100);
              return (
                <li key={b.node.id} className="timeline-row">
                  <span className="timeline-label" style={{ paddingLeft: `${b.depth}rem` }}>
                    <Link to={processPath(tenant, b.node.id)}>{b.node.label}</Link>
                  </span>
                  <span className="timeline-track">
                    <span
                      className={`timeline-bar status-${(b.node.status ?? 'none').toLowerCase()}${b.running ? ' running' : ''}`}
                      style={{ left: `${left}%`, width: `${width}%` }}
                      title={`${b.node.label} ${b.node.status ?? ''}: ${formatDuration(b.end - b.start)}`}
                    />
                  </span>
                  <span className="timeline-duration">{formatDuration(b.end - b.start)}</span>
                </li>
              );
            })}
          </ul>
          {g.bars.length > BARS_PER_GROUP && (
            <p className="muted">
              … and {g.bars.length - BARS_PER_GROUP} more processes in this tree (see the process's children).
            </p>
          )}
        </section>
      ))}
    </div>
  );
}
