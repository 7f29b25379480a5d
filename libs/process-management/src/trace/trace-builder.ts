/**
 * Assembles the execution graph of GET /trace from stored rows (pure: no database access).
 *
 * | node kind | id | from |
 * |---|---|---|
 * | TRIGGER | `trigger:<triggerId>` | the trigger id stored on processes (and its execution history) |
 * | PROCESS | process id | fw_process |
 * | COMPLETION | completion event id | fw_process_completion_event |
 *
 * | edge kind | source → target | when |
 * |---|---|---|
 * | PROCESS_CREATE | trigger → root | a root (no parent, no predecessor) carries the trigger id |
 * | SUBPROCESS | parent → child | `parent_id` |
 * | EMITS | process → its completion event | `process_id` of the event |
 * | SUCCESSOR | completion event → successor | the successor's `predecessor_id` and the event of that predecessor |
 * | LEGACY_SUCCESSOR | predecessor → successor | `predecessor_id` set but no stored completion event (rows older than the history) |
 *
 * @example
 * const graph = buildTrace({ processes, completions, triggers });
 * // { nodes: [{ id, kind: 'TRIGGER', ... }, ...], edges: [{ source, target, kind: 'PROCESS_CREATE' }, ...] }
 */

export type TraceNodeKind = 'TRIGGER' | 'PROCESS' | 'COMPLETION';
export type TraceEdgeKind = 'PROCESS_CREATE' | 'SUBPROCESS' | 'EMITS' | 'SUCCESSOR' | 'LEGACY_SUCCESSOR';

export interface TraceNode {
  id: string;
  kind: TraceNodeKind;
  label: string;
  /** Process state, completion state, or the trigger's latest execution status (null when unknown). */
  status: string | null;
  /** ISO-8601: creation, generation or reception time (null when unknown). */
  time: string | null;
  data: Record<string, unknown>;
}

export interface TraceEdge {
  source: string;
  target: string;
  kind: TraceEdgeKind;
}

export interface TraceGraph {
  nodes: TraceNode[];
  edges: TraceEdge[];
}

/** The process columns the trace reads. */
export interface TraceProcessRow {
  id: string;
  processType: string;
  leaf: boolean;
  parentId: string | null;
  predecessorId: string | null;
  triggerId: string | null;
  status: string;
  completedPercent: number;
  numSubProcesses: number;
  numCompletedSubProcesses: number;
  createdTime: string;
  lastModifiedTime: string;
}

export interface TraceCompletionRow {
  id: string;
  processId: string;
  processType: string;
  state: string;
  successful: boolean;
  generatedTime: string;
}

/** What is known about one trigger id (from the trigger history, when available). */
export interface TraceTriggerInfo {
  triggerId: string;
  status: string | null;
  time: string | null;
  data: Record<string, unknown>;
}

export interface TraceInput {
  processes: readonly TraceProcessRow[];
  completions: readonly TraceCompletionRow[];
  /** Trigger ids to show, with their history; ids only found on processes are added bare. */
  triggers: readonly TraceTriggerInfo[];
}

/** Node id of a trigger. */
export function triggerNodeId(triggerId: string): string {
  return `trigger:${triggerId}`;
}

/** Builds nodes (triggers, then processes in creation order, then completions) and edges. */
export function buildTrace(input: TraceInput): TraceGraph {
  const nodes: TraceNode[] = [];
  const edges: TraceEdge[] = [];
  const triggers = new Map<string, TraceTriggerInfo>();
  for (const t of input.triggers) triggers.set(t.triggerId, t);
  const processes = [...input.processes].sort((a, b) => a.createdTime.localeCompare(b.createdTime));
  for (const p of processes) {
    if (p.triggerId !== null && !triggers.has(p.triggerId))
      triggers.set(p.triggerId, { triggerId: p.triggerId, status: null, time: null, data: {} });
  }
  for (const t of triggers.values()) {
    nodes.push({
      id: triggerNodeId(t.triggerId),
      kind: 'TRIGGER',
      label: t.triggerId,
      status: t.status,
      time: t.time,
      data: { triggerId: t.triggerId, ...t.data },
    });
  }

  const present = new Set(processes.map((p) => p.id));
  const completionOf = new Map<string, TraceCompletionRow>();
  for (const c of [...input.completions].sort((a, b) => a.generatedTime.localeCompare(b.generatedTime))) {
    if (present.has(c.processId) && !completionOf.has(c.processId)) completionOf.set(c.processId, c);
  }

  for (const p of processes) {
    nodes.push({
      id: p.id,
      kind: 'PROCESS',
      label: p.processType,
      status: p.status,
      time: p.createdTime,
      data: {
        processType: p.processType,
        leaf: p.leaf,
        parentId: p.parentId,
        predecessorId: p.predecessorId,
        triggerId: p.triggerId,
        completedPercent: p.completedPercent,
        numSubProcesses: p.numSubProcesses,
        numCompletedSubProcesses: p.numCompletedSubProcesses,
        lastModifiedTime: p.lastModifiedTime,
      },
    });
    if (p.parentId === null && p.predecessorId === null && p.triggerId !== null) {
      edges.push({ source: triggerNodeId(p.triggerId), target: p.id, kind: 'PROCESS_CREATE' });
    }
    if (p.parentId !== null && present.has(p.parentId))
      edges.push({ source: p.parentId, target: p.id, kind: 'SUBPROCESS' });
    if (p.predecessorId !== null && present.has(p.predecessorId)) {
      const event = completionOf.get(p.predecessorId);
      edges.push(
        event
          ? { source: event.id, target: p.id, kind: 'SUCCESSOR' }
          : { source: p.predecessorId, target: p.id, kind: 'LEGACY_SUCCESSOR' },
      );
    }
  }

  for (const c of completionOf.values()) {
    nodes.push({
      id: c.id,
      kind: 'COMPLETION',
      label: `ProcessCompleted ${c.processType}`,
      status: c.state,
      time: c.generatedTime,
      data: { processId: c.processId, processType: c.processType, successful: c.successful },
    });
    edges.push({ source: c.processId, target: c.id, kind: 'EMITS' });
  }
  return { nodes, edges };
}
