import { createLogger, type Database, databaseInputError, type FwError, type Logger } from '@fw/core';
import { queryError, QueryErrorCodes } from '../errors/query-error-codes';
import { plannedRowCount } from '../execution/planned-count';
import { SessionCursor } from '../execution/session-cursor';
import { isStatementTimeout, runStatement } from '../execution/statement-runner';
import type { MappedStatement } from '../mapper/mapper-types';
import { makeRowGrouper } from '../stream/row-grouper';
import {
  type QueryExecutionProvider,
  type QueryExecutionRequest,
  type QueryExecutionResult,
  type RowBatchStream,
} from './query-provider-types';
import { pageStatement, streamStatement, unorderedStatement } from './sql-statement-text';

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
  /** Rows per FETCH of a stream after the first (smaller) one; default 1000. */
  streamBatchSize?: number;
  /** Longest wait for a stream's reader between two batches before the server ends the transaction, ms; default 60 000. */
  streamIdleMillis?: number;
}

type Row = Record<string, unknown>;

/** Suffix of the explicit count statement: `<id>-count`. */
export const COUNT_STATEMENT_SUFFIX = '-count';

/** The first FETCH of a stream is small, so the first row leaves quickly. */
const FIRST_STREAM_BATCH = 100;

function toCount(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`count statement returned ${String(value)}, not a row count`);
  return n;
}

/** The statement timeout that applies: the definition's, else the statement's `timeout`, else the tenant's. */
export function effectiveTimeoutMillis(
  request: QueryExecutionRequest,
  statement: MappedStatement | undefined,
): number | undefined {
  const own = statement?.timeoutSeconds === undefined ? undefined : statement.timeoutSeconds * 1000;
  return request.timeoutMillis ?? own ?? request.defaultTimeoutMillis;
}

/**
 * A stream of a statement's rows from a server-side cursor: a small first batch, then
 * `streamBatchSize`; rows of a nesting result map grouped into whole objects as they arrive.
 */
async function openStatementStream(
  statement: MappedStatement,
  request: QueryExecutionRequest,
  options: SqlQueryProviderOptions,
  fail: (err: unknown) => FwError,
): Promise<RowBatchStream> {
  const bound = streamStatement(statement, request);
  const cursor = await SessionCursor.open({
    database: options.databaseFor(request.tenantId),
    sql: bound.sql,
    values: bound.values,
    timeoutMillis: effectiveTimeoutMillis(request, statement),
    idleMillis: options.streamIdleMillis ?? 60_000,
  }).catch((err: unknown) => Promise.reject(fail(err)));
  const grouper = makeRowGrouper(statement.groupKeyColumns?.(), (raw) => statement.mapRows(raw));
  let batchSize = FIRST_STREAM_BATCH;
  let ended = false;
  return {
    async next() {
      while (!ended) {
        const raw = await cursor.fetch(batchSize).catch((err: unknown) => Promise.reject(fail(err)));
        batchSize = options.streamBatchSize ?? 1000;
        if (raw.length === 0) {
          ended = true;
          await cursor.close();
          const rest = grouper.flush();
          return rest.length > 0 ? rest : undefined;
        }
        const done = grouper.push(raw);
        if (done.length > 0) return done;
      }
      return undefined;
    },
    close: () => cursor.close(),
  };
}

/** The total count of a request: planned, the explicit `<id>-count` statement, or `count(*)` of the statement. */
async function countRows(
  statements: StatementLookup,
  statement: MappedStatement,
  request: QueryExecutionRequest,
  database: Database,
): Promise<number> {
  const timeout = effectiveTimeoutMillis(request, statement);
  const parameters = { ...request.parameters, orderby: '', pagination: '' };
  if (request.countMode === 'planned') {
    const bound = unorderedStatement(statement, request);
    return plannedRowCount(database, bound.sql, bound.values, timeout);
  }
  const explicit = statements.getStatement(`${request.definition.id}${COUNT_STATEMENT_SUFFIX}`);
  if (explicit) {
    const bound = explicit.render(parameters);
    const result = await runStatement(database, bound.sql, bound.values, timeout);
    const first = result[0];
    if (!first) throw new Error('count statement returned no row');
    return toCount(Object.values(first)[0]);
  }
  const bound = statement.render(parameters);
  const result = await runStatement(database, `select count(*) as total from (${bound.sql}) q`, bound.values, timeout);
  return toCount(result[0]?.total);
}

type FailureCode = typeof QueryErrorCodes.queryFailed | typeof QueryErrorCodes.countFailed;

/** Turns a failure of a request's statement into the FwError it answers with, and logs it. */
function makeFailureReport(
  options: SqlQueryProviderOptions,
  logger: Logger,
): (code: FailureCode, request: QueryExecutionRequest, err: unknown) => FwError {
  return (code, request, err) => {
    const name = request.definition.name;
    if (isStatementTimeout(err)) {
      const limit = effectiveTimeoutMillis(request, options.statements.getStatement(request.definition.id));
      logger.warn(
        { query: name, statement: request.definition.id, tenantId: request.tenantId, timeoutMillis: limit },
        'statement timeout',
      );
      return queryError(
        QueryErrorCodes.statementTimeout,
        `Query '${name}' ran longer than its time limit of ${limit ?? '?'} ms and was cancelled`,
        [name, limit],
      );
    }
    // A value of the request the database refuses (a fraction for an integer column) is the client's mistake: 400, not Q721.
    const refused = databaseInputError(err);
    if (refused) {
      logger.warn(
        { err, query: name, statement: request.definition.id, tenantId: request.tenantId },
        'the database refused a value of the request',
      );
      return refused;
    }
    logger.error(
      { err, query: name, statement: request.definition.id, tenantId: request.tenantId },
      code === QueryErrorCodes.countFailed ? 'count query failed' : 'query failed',
    );
    const what = code === QueryErrorCodes.countFailed ? 'The count for query' : 'Query';
    return queryError(code, `${what} '${name}' failed`, [name]);
  };
}

/**
 * The SQL provider: renders the definition's mapper statement with the request parameters and
 * runs it on the tenant's database.
 *
 * - Rows: see `pageStatement` (offset: framework text in `${orderby}`/`${pagination}` or a
 *   wrapper; keyset: a wrapper with a row-value condition).
 * - Count: `exact` runs the `<id>-count` statement when the mapper has one, else
 *   `select count(*) from (<statement without ORDER BY/LIMIT>) q`; `planned` asks the planner
 *   (`EXPLAIN (FORMAT JSON)` of the statement).
 * - A time limit (definition, statement `timeout`, tenant default) runs each statement in its own
 *   transaction with `SET LOCAL statement_timeout`.
 * - Streams: a server-side cursor (`SessionCursor`), nested result maps grouped as rows arrive.
 * - Failures: FwError 500 Q721 (rows) / Q722 (count), 504 Q730 for a timeout; the database error is logged.
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
    const bound = pageStatement(statement, request);
    return statement.mapRows(
      await runStatement(database, bound.sql, bound.values, effectiveTimeoutMillis(request, statement)),
    );
  }

  // async, so a statement that is not loaded rejects (reported as Q722) instead of throwing.
  const count = async (request: QueryExecutionRequest, database: Database) =>
    countRows(options.statements, statementOf(request.definition.id), request, database);
  const fail = makeFailureReport(options, logger);

  const stream = (request: QueryExecutionRequest) =>
    openStatementStream(statementOf(request.definition.id), request, options, (err) =>
      fail(QueryErrorCodes.queryFailed, request, err),
    );

  return {
    name: options.name ?? 'sql',
    supportsStatement: (id) => options.statements.getStatement(id) !== undefined,
    async execute(request): Promise<QueryExecutionResult> {
      const database = options.databaseFor(request.tenantId);
      const rowsPromise =
        request.mode === 'count'
          ? Promise.resolve<Row[]>([])
          : rows(request, database).catch((err: unknown) =>
              Promise.reject(fail(QueryErrorCodes.queryFailed, request, err)),
            );
      const countPromise =
        request.mode === 'rows'
          ? Promise.resolve(undefined)
          : count(request, database).catch((err: unknown) =>
              Promise.reject(fail(QueryErrorCodes.countFailed, request, err)),
            );
      // Both settle before reporting, so a failing statement is always Q721 (rows) first, never
      // whichever of the two parallel queries happened to fail first.
      const [rowsResult, countResult] = await Promise.allSettled([rowsPromise, countPromise]);
      if (rowsResult.status === 'rejected') throw rowsResult.reason;
      if (countResult.status === 'rejected') throw countResult.reason;
      const totalCount = countResult.value;
      return totalCount === undefined ? { rows: rowsResult.value } : { rows: rowsResult.value, totalCount };
    },
    stream,
  };
}
