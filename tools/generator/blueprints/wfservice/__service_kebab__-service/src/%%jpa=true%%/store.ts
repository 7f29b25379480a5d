// Where {{service}} entities live: fw_workflow_entity through kysely, on PGlite (a folder, or memory
// in tests) or PostgreSQL, chosen by URL. The table comes from @fw/workflow's own migration, so
// every workflow service of a database shares it (one row per entity, keyed by service and id).
import { createDatabase, migrateDatabase, type Database } from '@fw/core';
import { makeDatabaseWorkflowStore, workflowMigrations, type WorkflowStore } from '@fw/workflow';

/** An embedded database in ./.data: `npm start` works with nothing installed beside it. */
export const DEFAULT_DATABASE_URL = 'pglite:./.data/{{serviceKebab}}';

export interface OpenedStore {
  store: WorkflowStore;
  /** Where it is (password redacted), for the start-up line. */
  location: string;
  close(): Promise<void>;
}

/**
 * Opens the database and applies @fw/workflow's migrations, which create fw_workflow_entity (this
 * service needs no other table; `fw-migrate` applies the rest when a host wants it).
 * @param url `pglite:memory:`, `pglite:<folder>`, `postgres://…`; default DATABASE_URL, else ./.data.
 */
export async function openStore(url: string = process.env.DATABASE_URL || DEFAULT_DATABASE_URL): Promise<OpenedStore> {
  const database: Database = createDatabase({ url });
  try {
    await migrateDatabase(database, workflowMigrations());
  } catch (err) {
    await database.close();
    throw err;
  }
  return { store: makeDatabaseWorkflowStore(database), location: database.displayUrl, close: () => database.close() };
}
