/**
 * The causal graph of a trace (@xyflow/react, dagre layout): TRIGGER, PROCESS and COMPLETION nodes,
 * the five edge kinds drawn distinctly, pan and zoom, a click on a node opens it. Loaded on demand
 * (its own chunk). Refreshes keep the viewport: the layout is only fitted on the first answer.
 */
import {
  Background,
  Controls,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  type Edge,
  type Node,
  type NodeProps,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useMemo } from 'react';
import type { TraceGraph, TraceNode } from '../../api/types';
import { StatusBadge } from '../../components/status';
import { shortId } from '../../components/time';
import { EDGE_LOOK, nodeTarget } from './edges';
import { layoutTrace, NODE_HEIGHT, NODE_WIDTH } from './layout';

type TraceFlowNode = Node<{ trace: TraceNode }, 'trace'>;

const TraceNodeView = memo(function TraceNodeView({ data }: NodeProps<TraceFlowNode>) {
  const n = data.trace;
  const sub = n.kind === 'PROCESS' ? shortId(n.id) : n.kind === 'TRIGGER' ? 'trigger' : 'ProcessCompleted';
  const label = n.kind === 'COMPLETION' && typeof n.data.processType === 'string' ? n.data.processType : n.label;
  return (
    <div
      className={`tnode tnode-${n.kind.toLowerCase()}`}
      style={{ width: NODE_WIDTH, height: NODE_HEIGHT }}
      data-node-id={n.id}
      data-node-kind={n.kind}
      title={`${n.kind} ${n.label}`}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className="tnode-label">{label}</div>
      <div className="tnode-sub">
        <span className="mono">{sub}</span> {n.status && <StatusBadge status={n.status} />}
      </div>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

const NODE_TYPES = { trace: TraceNodeView };

export interface CausalGraphProps {
  graph: TraceGraph;
  onOpen(target: { processId: string } | { triggerId: string }): void;
  /** Highlighted node (the process the trace was asked for). */
  focusId?: string;
}

function toFlow(graph: TraceGraph, focusId: string | undefined): { nodes: TraceFlowNode[]; edges: Edge[] } {
  const nodes: TraceFlowNode[] = layoutTrace(graph).map(({ node, x, y }) => ({
    id: node.id,
    type: 'trace',
    position: { x, y },
    data: { trace: node },
    draggable: false,
    connectable: false,
    selected: node.id === focusId,
    ariaLabel: `${node.kind.toLowerCase()} ${node.label}${node.status ? `, ${node.status}` : ''}: open`,
  }));
  const edges: Edge[] = graph.edges.map((e, i) => {
    const look = EDGE_LOOK[e.kind];
    return {
      id: `${e.kind}:${e.source}:${e.target}:${i}`,
      source: e.source,
      target: e.target,
      animated: look.animated,
      label: e.kind === 'SUBPROCESS' ? undefined : look.label,
      className: `edge-${e.kind.toLowerCase()}`,
      style: { stroke: look.color, strokeWidth: look.width, strokeDasharray: look.dash },
      markerEnd: { type: MarkerType.ArrowClosed, color: look.color },
      focusable: false,
    };
  });
  return { nodes, edges };
}

export default function CausalGraph({ graph, onOpen, focusId }: CausalGraphProps) {
  const { nodes, edges } = useMemo(() => toFlow(graph, focusId), [graph, focusId]);
  const big = nodes.length > 200;
  return (
    <div className="graph" data-testid="causal-graph" data-nodes={nodes.length}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        fitView
        fitViewOptions={{ padding: 0.15, maxZoom: 1.2 }}
        minZoom={0.05}
        maxZoom={2}
        onlyRenderVisibleElements={big}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable
        onNodeClick={(_e, node) => {
          const target = nodeTarget(node.data.trace);
          if (target) onOpen(target);
        }}
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={24} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
