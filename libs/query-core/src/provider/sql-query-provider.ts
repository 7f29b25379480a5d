import { createLogger, Database, Logger } from '@fw/core';
import { CompiledQuery } from 'kysely';
import { queryError, QueryErrorCodes } from '../errors/query-error-codes';
import type { MappedStatement } from '../mapper/mapper-types';
import { buildOrderBy, buildPagination } from '../search/sql-fragments';
import { QueryExecutionProvider, QueryExecutionRequest, QueryExecutionResult } from './query-provider-types';

/** Finds mapped statements by `<namespace>.<statement id>` (a MapperRegistry satisfies it). */
export interface StatementLookup {
  getStatement(id: string): MappedStatement | undefined;
}

export interface SqlQueryProviderOptions {
  /** Provider name; default `sql`. */
  name?: string;
  statements: StatementLookup;
  /** The tenant's database (the tenant router's `database`). */
  databaseFor(tenantId: string): Database;
  logger?: Logger;
}

type Row = Record<string, unknown>;

/** Suffix of the explicit count statement: `<id>-count`. */
export const COUNT_STATEMENT_SUFFIX = '-count';

/**
 * Runs one statement: through the database's pool port when it has one (no Kysely compile and
 * executor layers on the hot path), else through Kysely.
 */
async function run(database: Database, sql: string, values: readonly unknown[]): Promise<Row[]> {
  if (database.query) return database.query<Row>(sql, values);
  const result = await database.db.executeQuery<Row>(CompiledQuery.raw(sql, [...values]));
  return result.rows;
}

function toCount(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`count statement returned ${String(value)}, not a row count`);
  return n;
}

/**
 * The SQL provider: renders the definition's mapper statement with the request parameters and
 * runs it on the tenant's database.
 *
 * - Rows: when the statement has `${orderby}`/`${pagination}`, the framework text goes there;
 *   otherwise the statement is wrapped: `select * from (<sql>) q ORDER BY q."col" LIMIT n OFFSET m`
 *   (a wrapper ORDER BY uses the last segment of `columnName`, i.e. the derived table's column).
 * - Count: the `<id>-count` statement when the mapper has one, else
 *   `select count(*) from (<statement without ORDER BY/LIMIT>) q`.
 * - Failures: FwError 500 Q721 (rows) / Q722 (count) with a generic message; the database error is logged.
 *
 * @example
 * const sqlProvider = makeSqlQueryProvider({ statements: registry, databaseFor: (t) => router.database(t) });
 */
export function makeSqlQueryProvider(options: SqlQueryProviderOptions): QueryExecutionProvider {
  const logger = options.logger ?? createLogger({ name: 'query-core' });
  const statementOf = (id: string): MappedStatement => {
    const statement = options.statements.getStatement(id);
    if (!statement) throw new Error(`statement '${id}' is not loaded`);
    return statement;
  };

  async function rows(request: QueryExecutionRequest, database: Database): Promise<Row[]> {
    const statement = statementOf(request.definition.id);
    const bound = statement.render(request.parameters);
    const outerOrder = statement.usesOrderBy ? '' : buildOrderBy(request.sort, 'wrapper');
    const outerPage = statement.usesPagination ? '' : buildPagination(request.page);
    const sql = outerOrder === '' && outerPage === '' ? bound.sql : [`select * from (${bound.sql}) q`, outerOrder, outerPage].filter((p) => p !== '').join(' ');
    return statement.mapRows(await run(database, sql, bound.values));
  }

  async function count(request: QueryExecutionRequest, database: Database): Promise<number> {
    const parameters = { ...request.parameters, orderby: '', pagination: '' };
    const explicit = options.statements.getStatement(`${request.definition.id}${COUNT_STATEMENT_SUFFIX}`);
    if (explicit) {
      const bound = explicit.render(parameters);
      const result = await run(database, bound.sql, bound.values);
      const first = result[0];
      if (!first) throw new Error('count statement returned no row');
      return toCount(Object.values(first)[0]);
    }
    const bound = statementOf(request.definition.id).render(parameters);
    const result = await run(database, `select count(*) as total from (${bound.sql}) q`, bound.values);
    return toCount(result[0]?.total);
  }

  const fail = (code: typeof QueryErrorCodes.queryFailed | typeof QueryErrorCodes.countFailed, request: QueryExecutionRequest, err: unknown) => {
    logger.error({ err, query: request.definition.name, statement: request.definition.id, tenantId: request.tenantId }, code === QueryErrorCodes.countFailed ? 'count query failed' : 'query failed');
    const what = code === QueryErrorCodes.countFailed ? 'The count for query' : 'Query';
    return queryError(code, `${what} '${request.definition.name}' failed`, [request.definition.name]);
  };

  return {
    name: options.name ?? 'sql',
    supportsStatement: (id) => options.statements.getStatement(id) !== undefined,
    async execute(request): Promise<QueryExecutionResult> {
      const database = options.databaseFor(request.tenantId);
      const rowsPromise =
        request.mode === 'count' ? Promise.resolve<Row[]>([]) : rows(request, database).catch((err: unknown) => Promise.reject(fail(QueryErrorCodes.queryFailed, request, err)));
      const countPromise =
        request.mode === 'rows' ? Promise.resolve(undefined) : count(request, database).catch((err: unknown) => Promise.reject(fail(QueryErrorCodes.countFailed, request, err)));
      // Both settle before reporting, so a failing statement is always Q721 (rows) first, never
      // whichever of the two parallel queries happened to fail first.
      const [rowsResult, countResult] = await Promise.allSettled([rowsPromise, countPromise]);
      if (rowsResult.status === 'rejected') throw rowsResult.reason;
      if (countResult.status === 'rejected') throw countResult.reason;
      const totalCount = countResult.value;
      return totalCount === undefined ? { rows: rowsResult.value } : { rows: rowsResult.value, totalCount };
    },
  };
}
