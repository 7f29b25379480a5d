/**
 * Automatic layout of a trace with dagre (left to right: trigger → roots → children → completions
 * → successors). Only the graph chunk imports it (dagre stays out of the main bundle).
 */
import dagre from '@dagrejs/dagre';
import type { TraceGraph, TraceNode } from '../../api/types';

export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 58;

export interface PlacedNode {
  node: TraceNode;
  x: number;
  y: number;
}

/** Top-left positions of every node. */
export function layoutTrace(graph: TraceGraph): PlacedNode[] {
  const g = new dagre.graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 60, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes) g.setNode(n.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const e of graph.edges) if (g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target);
  dagre.layout(g);
  return graph.nodes.map((node) => {
    const placed = g.node(node.id);
    return { node, x: placed.x - NODE_WIDTH / 2, y: placed.y - NODE_HEIGHT / 2 };
  });
}
