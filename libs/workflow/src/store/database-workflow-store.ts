/**
 * The kysely adapter of {@link WorkflowStore}: `fw_workflow_entity` on PostgreSQL or PGlite
 * (apply the schema with `fw-migrate`). The optimistic update is one statement:
 * `update … where service = $1 and id = $2 and version = $expected`.
 */
import type { Database } from '@fw/core';
import type { Kysely } from 'kysely';
import type { WorkflowEntity, WorkflowStore } from './workflow-store';

export const WORKFLOW_ENTITY_TABLE = 'fw_workflow_entity';

interface EntityRow {
  service: string;
  id: string;
  tenant: string | null;
  flow_id: string;
  state_id: string;
  done_activities: string;
  data: string;
  version: number;
  created_time: Date | string;
  last_modified_time: Date | string;
}

interface EntityTables {
  fw_workflow_entity: EntityRow;
}

function iso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

function parsed<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

function toEntity(row: EntityRow): WorkflowEntity {
  const done = parsed<string[]>(row.done_activities);
  return {
    id: row.id,
    service: row.service,
    tenant: row.tenant,
    state:
      done.length > 0
        ? { flowId: row.flow_id, stateId: row.state_id, doneActivities: done }
        : { flowId: row.flow_id, stateId: row.state_id },
    data: parsed<Record<string, unknown>>(row.data),
    version: Number(row.version),
    createdTime: iso(row.created_time),
    lastModifiedTime: iso(row.last_modified_time),
  };
}

function toRow(entity: WorkflowEntity): EntityRow {
  return {
    service: entity.service,
    id: entity.id,
    tenant: entity.tenant,
    flow_id: entity.state.flowId,
    state_id: entity.state.stateId,
    done_activities: JSON.stringify(entity.state.doneActivities ?? []),
    data: JSON.stringify(entity.data),
    version: entity.version,
    created_time: entity.createdTime,
    last_modified_time: entity.lastModifiedTime,
  };
}

/**
 * @example
 * const store = makeDatabaseWorkflowStore(createDatabase({ url: process.env.DATABASE_URL! }));
 */
export function makeDatabaseWorkflowStore(database: Pick<Database, 'db'>): WorkflowStore {
  const db = database.db as Kysely<EntityTables>;
  return {
    async insert(entity) {
      await db.insertInto(WORKFLOW_ENTITY_TABLE).values(toRow(entity)).execute();
    },
    async find(service, id) {
      const row = await db
        .selectFrom(WORKFLOW_ENTITY_TABLE)
        .selectAll()
        .where('service', '=', service)
        .where('id', '=', id)
        .executeTakeFirst();
      return row === undefined ? undefined : toEntity(row);
    },
    async update(entity, expectedVersion) {
      const row = toRow(entity);
      const result = await db
        .updateTable(WORKFLOW_ENTITY_TABLE)
        .set({
          state_id: row.state_id,
          flow_id: row.flow_id,
          done_activities: row.done_activities,
          data: row.data,
          version: row.version,
          last_modified_time: row.last_modified_time,
          tenant: row.tenant,
        })
        .where('service', '=', entity.service)
        .where('id', '=', entity.id)
        .where('version', '=', expectedVersion)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
