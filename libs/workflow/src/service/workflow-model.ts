/** The shapes a workflow service's actions receive and its entity operations answer. */
import type { WorkflowEntity } from '../store/workflow-store';

/** What actions and conditions receive as their context. */
export interface WorkflowContext {
  readonly tenant: string | undefined;
  readonly service: string;
}

export interface AllowedActionAndMetadata {
  allowedAction: string;
  stateId: string;
  metadata: Record<string, string>;
}

export interface WorkflowResponse {
  mutatedEntity: WorkflowEntity;
  allowedActionsAndMetadata: AllowedActionAndMetadata[];
}
