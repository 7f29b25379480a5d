import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { AsyncMutex } from './async-mutex';
import { INT8_OID, NUMERIC_OID, parseInt8, parseNumeric } from './type-parsers';

/**
 * The part of a PGlite instance this module uses. Our own port rather than PGlite's class type, so
 * `@electric-sql/pglite` stays an optional peer loaded only for `pglite:` URLs, and no PGlite
 * internals (its Emscripten types) reach our published declarations.
 */
export interface PgliteInstance {
  readonly waitReady: Promise<void>;
  readonly closed: boolean;
  query<R>(
    sql: string,
    params?: unknown[],
    options?: typeof PGLITE_QUERY_OPTIONS,
  ): Promise<{ rows: R[]; affectedRows?: number; fields?: unknown }>;
  exec(script: string): Promise<unknown>;
  close(): Promise<void>;
}

/** Per-query parsers: PGlite's constructor-level option does not cover every type. */
export const PGLITE_QUERY_OPTIONS = { parsers: { [INT8_OID]: parseInt8, [NUMERIC_OID]: parseNumeric } };

/** Converts parameters the way `pg` does, so SQL behaves the same on both drivers. */
export function serializeParameter(value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date || Buffer.isBuffer(value) || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(serializeParameter);
  return JSON.stringify(value);
}

const MUTATING = /^\s*(insert|update|delete|merge)\b/i;

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PgliteInstance) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(
      compiledQuery.sql,
      compiledQuery.parameters.map(serializeParameter),
      PGLITE_QUERY_OPTIONS,
    );
    const affected = result.affectedRows;
    return MUTATING.test(compiledQuery.sql) && affected !== undefined
      ? { rows: result.rows, numAffectedRows: BigInt(affected) }
      : { rows: result.rows };
  }

  // PGlite has no cursors over its protocol; stream the buffered result in chunks.
  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }
}

/**
 * Kysely driver for PGlite. PGlite is one backend in this process, so the driver hands out a
 * single connection guarded by a mutex: a transaction holds it until commit or rollback, and
 * other queries wait instead of interleaving inside it.
 */
export class PgliteDriver implements Driver {
  private readonly connection: PgliteConnection;

  constructor(
    private readonly pglite: PgliteInstance,
    private readonly mutex: AsyncMutex,
  ) {
    this.connection = new PgliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    const access = settings.accessMode ? ` ${settings.accessMode}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}${access}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name.replace(/"/g, '""')}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint "${name.replace(/"/g, '""')}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint "${name.replace(/"/g, '""')}"`));
  }

  async releaseConnection(): Promise<void> {
    this.mutex.unlock();
  }

  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

/** Kysely dialect over a PGlite instance: PostgreSQL SQL, compiler and introspection. */
export class PgliteDialect implements Dialect {
  constructor(
    private readonly pglite: PgliteInstance,
    private readonly mutex: AsyncMutex = new AsyncMutex(),
  ) {}

  createDriver(): Driver {
    return new PgliteDriver(this.pglite, this.mutex);
  }

  createQueryCompiler(): PostgresQueryCompiler {
    return new PostgresQueryCompiler();
  }

  createAdapter(): PostgresAdapter {
    return new PostgresAdapter();
  }

  createIntrospector(db: Kysely<unknown>): PostgresIntrospector {
    return new PostgresIntrospector(db);
  }
}
