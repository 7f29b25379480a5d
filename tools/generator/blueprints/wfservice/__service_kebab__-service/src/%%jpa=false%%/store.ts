// Where {{service}} entities live: in memory (the generator's jpa answer was no). They are gone when
// the process stops; generate with jpa=y for fw_workflow_entity on PGlite or PostgreSQL.
import { makeInMemoryWorkflowStore, type WorkflowStore } from '@fw/workflow';

export interface OpenedStore {
  store: WorkflowStore;
  location: string;
  close(): Promise<void>;
}

export async function openStore(): Promise<OpenedStore> {
  return { store: makeInMemoryWorkflowStore(), location: 'memory', close: async () => undefined };
}
