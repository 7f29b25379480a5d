/**
 * Where workflow entities live: a small port with an in-memory and a kysely adapter
 * (`fw_workflow_entity`, migration 0008). Updates are optimistic: they name the version they read
 * and report whether it was still the current one.
 */
import type { StmState } from '@fw/stm';

/** A workflow entity as stored and answered (`mutatedEntity`). */
export interface WorkflowEntity {
  id: string;
  service: string;
  tenant: string | null;
  state: StmState;
  /** The entity's own fields (the create payload, changed by actions). */
  data: Record<string, unknown>;
  /** 1 after create, +1 per accepted event. */
  version: number;
  createdTime: string;
  lastModifiedTime: string;
}

export interface WorkflowStore {
  insert(entity: WorkflowEntity): Promise<void>;
  /** The entity, or undefined (also when it belongs to another service). */
  find(service: string, id: string): Promise<WorkflowEntity | undefined>;
  /** Writes `entity` when the stored version is still `expectedVersion`; false when it is not. */
  update(entity: WorkflowEntity, expectedVersion: number): Promise<boolean>;
}

/** A deep copy, so callers never share objects with a store. */
export function copyEntity(entity: WorkflowEntity): WorkflowEntity {
  return structuredClone(entity);
}

/** Entities in this process's memory (tests, demos, services without persistence). */
export function makeInMemoryWorkflowStore(): WorkflowStore {
  const rows = new Map<string, WorkflowEntity>();
  const key = (service: string, id: string) => `${service}\u0000${id}`;
  return {
    async insert(entity) {
      const k = key(entity.service, entity.id);
      if (rows.has(k)) throw new Error(`workflow entity ${entity.id} exists already`);
      rows.set(k, copyEntity(entity));
    },
    async find(service, id) {
      const found = rows.get(key(service, id));
      return found === undefined ? undefined : copyEntity(found);
    },
    async update(entity, expectedVersion) {
      const k = key(entity.service, entity.id);
      const current = rows.get(k);
      if (current === undefined || current.version !== expectedVersion) return false;
      rows.set(k, copyEntity(entity));
      return true;
    },
  };
}
