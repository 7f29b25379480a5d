/** How each edge kind is drawn, and where a click on a node leads (no graph library here: the main chunk imports it). */
import type { TraceEdgeKind, TraceNode } from '../../api/types';

export interface EdgeLook {
  label: string;
  color: string;
  dash?: string;
  width: number;
  animated: boolean;
  description: string;
}

/** The five edge kinds, each drawn distinctly (colour, dash, width) and named in the legend. */
export const EDGE_LOOK: Record<TraceEdgeKind, EdgeLook> = {
  PROCESS_CREATE: {
    label: 'creates',
    color: 'var(--edge-create)',
    width: 2.5,
    animated: false,
    description: 'trigger → root process (ProcessCreate)',
  },
  SUBPROCESS: {
    label: 'child',
    color: 'var(--edge-child)',
    width: 1.5,
    animated: false,
    description: 'parent → child process',
  },
  EMITS: {
    label: 'emits',
    color: 'var(--edge-emits)',
    dash: '2 4',
    width: 1.5,
    animated: false,
    description: 'process → its completion event',
  },
  SUCCESSOR: {
    label: 'starts',
    color: 'var(--edge-successor)',
    dash: '8 4',
    width: 2.5,
    animated: true,
    description: 'completion event → successor process',
  },
  LEGACY_SUCCESSOR: {
    label: 'successor',
    color: 'var(--edge-legacy)',
    dash: '12 4 2 4',
    width: 2,
    animated: false,
    description: 'predecessor → successor (no stored completion event)',
  },
};

/** Where clicking a node leads: a process, the process of a completion, or the executions of a trigger. */
export function nodeTarget(node: TraceNode): { processId: string } | { triggerId: string } | undefined {
  if (node.kind === 'PROCESS') return { processId: node.id };
  if (node.kind === 'COMPLETION' && typeof node.data.processId === 'string') return { processId: node.data.processId };
  if (node.kind === 'TRIGGER' && typeof node.data.triggerId === 'string') return { triggerId: node.data.triggerId };
  return undefined;
}
