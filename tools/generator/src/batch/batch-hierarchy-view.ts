import { processSpecView } from '../process-spec/process-spec-view';
import type { ProcessSpec } from '../process-spec/process-spec';

/** A batch is a processSpec once flattened: the same view, plus the steps' depth-first order. */
export function batchHierarchyView(spec: ProcessSpec): Record<string, unknown> {
  return { ...processSpecView(spec), stepCount: spec.processes.length };
}
