/**
 * The timeline of a trace: one bar per process from its creation to its completion (its
 * completion event, else its last change when finished, else now), grouped by tree (a root and
 * its descendants), trees in creation order.
 */
import type { TraceGraph, TraceNode } from '../../api/types';

export interface TimelineBar {
  node: TraceNode;
  depth: number;
  start: number;
  end: number;
  running: boolean;
}

export interface TimelineGroup {
  root: TraceNode;
  bars: TimelineBar[];
}

export interface Timeline {
  groups: TimelineGroup[];
  start: number;
  end: number;
}

const FINISHED = new Set(['PROCESSED', 'PROCESSED_WITH_ERRORS']);

function parentOf(node: TraceNode): string | null {
  return node.kind === 'PROCESS' ? node.data.parentId : null;
}

export function buildTimeline(graph: TraceGraph, now: number = Date.now()): Timeline {
  const processes = graph.nodes.filter((n) => n.kind === 'PROCESS');
  const byId = new Map(processes.map((p) => [p.id, p]));
  const completionOf = new Map<string, number>();
  for (const n of graph.nodes) {
    if (n.kind === 'COMPLETION' && typeof n.data.processId === 'string' && n.time)
      completionOf.set(n.data.processId, Date.parse(n.time));
  }
  const children = new Map<string, TraceNode[]>();
  const roots: TraceNode[] = [];
  for (const p of processes) {
    const parent = parentOf(p);
    if (parent !== null && byId.has(parent)) children.set(parent, [...(children.get(parent) ?? []), p]);
    else roots.push(p);
  }
  const barOf = (p: TraceNode, depth: number): TimelineBar => {
    const start = p.time ? Date.parse(p.time) : now;
    const finished = FINISHED.has(p.status ?? '');
    const last = p.kind === 'PROCESS' ? Date.parse(p.data.lastModifiedTime) : start;
    const end = completionOf.get(p.id) ?? (finished ? last : now);
    return { node: p, depth, start, end: Math.max(end, start), running: !finished };
  };
  const groups: TimelineGroup[] = roots.map((root) => {
    const bars: TimelineBar[] = [];
    const walk = (p: TraceNode, depth: number) => {
      bars.push(barOf(p, depth));
      for (const c of children.get(p.id) ?? []) walk(c, depth + 1);
    };
    walk(root, 0);
    return { root, bars };
  });
  const all = groups.flatMap((g) => g.bars);
  const start = all.length ? Math.min(...all.map((b) => b.start)) : now;
  const end = all.length ? Math.max(...all.map((b) => b.end)) : now;
  return { groups, start, end: end > start ? end : start + 1 };
}
