// The database store (generated with jpa=y): kysely on @fw/core's database handle — PGlite by
// default (`pglite:memory:` or `pglite:<folder>`), PostgreSQL with a `postgres://` URL; the same
// code runs on both. `open{{servicePascal}}DatabaseRepository` applies the migrations before use.
import { randomUUID } from 'node:crypto';
import { createDatabase, migrateDatabase, type Database } from '@fw/core';
import type { Create{{servicePascal}}Request, {{servicePascal}}Entity } from '{{scope}}/{{serviceKebab}}-api';
import type { AdjustOutcome, {{servicePascal}}Repository } from './repository';
import { MIGRATIONS } from './migrations';

const TABLE = '{{serviceKebab}}';

// Type aliases, not interfaces: kysely's withTables wants types it can index by any string.
type Row = {
  tenant: string;
  id: string;
  name: string;
  quantity: number;
  created_at: Date;
};

/** The kysely table types of this service. */
export type {{servicePascal}}Tables = { [TABLE]: Row };

export interface DatabaseSettings {
  /** `pglite:memory:`, `pglite:<folder>` or `postgres://user@host:5432/db`. */
  url: string;
  username?: string;
  password?: string;
}

function toEntity(row: Pick<Row, 'id' | 'name' | 'quantity' | 'created_at'>): {{servicePascal}}Entity {
  return { id: row.id, name: row.name, quantity: row.quantity, createdAt: new Date(row.created_at).toISOString() };
}

/**
 * A repository on a database someone else opened and migrated (with MIGRATIONS) (a host sharing one database among
 * several services). `closeDatabase` says whether `close()` closes it too.
 */
export function makeDatabase{{servicePascal}}Repository(database: Database, options: { closeDatabase: boolean }): {{servicePascal}}Repository {
  // Any handle works (one shared with other services' tables): kysely is told about this table here.
  const db = database.db.withTables<{{servicePascal}}Tables>();
  return {
    async create(tenant, request: Create{{servicePascal}}Request) {
      const row = await db
        .insertInto(TABLE)
        .values({ tenant, id: randomUUID(), name: request.name, quantity: request.quantity ?? 0, created_at: new Date() })
        .returning(['id', 'name', 'quantity', 'created_at'])
        .executeTakeFirstOrThrow();
      return toEntity(row);
    },
    async get(tenant, id) {
      const row = await db.selectFrom(TABLE).select(['id', 'name', 'quantity', 'created_at']).where('tenant', '=', tenant).where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toEntity(row);
    },
    // One conditional UPDATE: the check and the change happen together in the database, so two
    // concurrent callers can neither lose an update nor take the quantity below zero.
    async adjust(tenant, id, delta): Promise<AdjustOutcome> {
      const updated = await db
        .updateTable(TABLE)
        .set((eb) => ({ quantity: eb('quantity', '+', delta) }))
        .where('tenant', '=', tenant)
        .where('id', '=', id)
        .where((eb) => eb(eb('quantity', '+', delta), '>=', 0))
        .returning(['quantity'])
        .executeTakeFirst();
      if (updated !== undefined) return { kind: 'adjusted', previousQuantity: updated.quantity - delta, quantity: updated.quantity };
      const current = await db.selectFrom(TABLE).select(['quantity']).where('tenant', '=', tenant).where('id', '=', id).executeTakeFirst();
      return current === undefined ? { kind: 'absent' } : { kind: 'refused', quantity: current.quantity };
    },
    async ping() {
      await db.selectFrom(TABLE).select('id').limit(1).execute();
    },
    async close() {
      if (options.closeDatabase) await database.close();
    },
  };
}

/** Opens the database named by `settings`, applies the migrations and returns the repository that owns it. */
export async function open{{servicePascal}}DatabaseRepository(settings: DatabaseSettings): Promise<{{servicePascal}}Repository> {
  const database = createDatabase({ url: settings.url, username: settings.username, password: settings.password });
  try {
    await migrateDatabase(database, MIGRATIONS);
  } catch (err) {
    await database.close();
    throw err;
  }
  return makeDatabase{{servicePascal}}Repository(database, { closeDatabase: true });
}
