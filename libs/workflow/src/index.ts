// Public entry point of @fw/workflow. Every export is listed explicitly.
export { defineWorkflowService, WorkflowErrorCodes } from './service/workflow-service';
export type {
  AllowedActionAndMetadata,
  WorkflowContext,
  WorkflowResponse,
  WorkflowServiceOptions,
} from './service/workflow-service';
export { makeInMemoryWorkflowStore, copyEntity } from './store/workflow-store';
export type { WorkflowEntity, WorkflowStore } from './store/workflow-store';
export { makeDatabaseWorkflowStore, WORKFLOW_ENTITY_TABLE } from './store/database-workflow-store';
export { enumerateTestCases, MAX_TEST_CASES } from './introspection/test-cases';
export type { TestCase, TestCaseStep } from './introspection/test-cases';
export { SUPPORT_TICKET_FLOW, SUPPORT_TICKET_SCHEMA } from './example/support-ticket';
export { workflowMigrations } from './schema/workflow-migrations';
