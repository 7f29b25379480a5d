import { keysetCondition, keysetOrderBy, wrapperColumn } from '../keyset/keyset-sql';
import type { BoundSql, MappedStatement } from '../mapper/mapper-types';
import { buildOrderBy, buildPagination } from '../search/sql-fragments';
import type { QueryExecutionRequest } from './query-provider-types';

/**
 * The rows statement of a page. Offset paging: the framework text goes into `${orderby}` /
 * `${pagination}` when the statement has them, else the statement is wrapped:
 * `select * from (<sql>) q ORDER BY q."col" LIMIT n OFFSET m`. Keyset paging always wraps, with
 * the position as a row-value condition on the derived table:
 * `select * from (<sql>) q WHERE (q."a", q."id") > ($n, $m) ORDER BY q."a", q."id" LIMIT k`.
 */
export function pageStatement(statement: MappedStatement, request: QueryExecutionRequest): BoundSql {
  const bound = statement.render(request.parameters);
  if (request.keyset) {
    const { after, backward } = request.keyset;
    const where = after ? ` WHERE ${keysetCondition(request.sort, backward, bound.values.length + 1)}` : '';
    const limit = request.page ? ` ${buildPagination(request.page).replace(/ OFFSET 0$/, '')}` : '';
    return {
      sql: `select * from (${bound.sql}) q${where} ${keysetOrderBy(request.sort, backward)}${limit}`,
      values: [...bound.values, ...(after ?? [])],
    };
  }
  const outerOrder = statement.usesOrderBy ? '' : buildOrderBy(request.sort, 'wrapper');
  const outerPage = statement.usesPagination ? '' : buildPagination(request.page);
  if (outerOrder === '' && outerPage === '') return bound;
  return {
    sql: [`select * from (${bound.sql}) q`, outerOrder, outerPage].filter((p) => p !== '').join(' '),
    values: bound.values,
  };
}

/**
 * The statement of a stream: every row in the request's sort. With a nesting result map the rows
 * of one top-level object must come together, so the object's key columns follow the sort
 * (`ORDER BY q."title", q."author_id"`); sorting by a column of the nested rows would split objects.
 */
export function streamStatement(statement: MappedStatement, request: QueryExecutionRequest): BoundSql {
  const groupKeys = statement.groupKeyColumns?.();
  if (!groupKeys) return pageStatement(statement, { ...request, page: undefined, keyset: undefined });
  const bound = statement.render({ ...request.parameters, orderby: '', pagination: '' });
  const sortColumns = new Set(request.sort.map((s) => s.column.split('.').pop()?.toLowerCase()));
  const order = [
    ...request.sort.map((s) => `${wrapperColumn(s.column)} ${s.ascending ? 'ASC' : 'DESC'}`),
    ...groupKeys.filter((k) => !sortColumns.has(k.toLowerCase())).map((k) => `${wrapperColumn(k.toLowerCase())} ASC`),
  ];
  return { sql: `select * from (${bound.sql}) q ORDER BY ${order.join(', ')}`, values: bound.values };
}

/** The statement whose planner estimate is a planned count: the rows statement without ORDER BY or LIMIT. */
export function unorderedStatement(statement: MappedStatement, request: QueryExecutionRequest): BoundSql {
  return statement.render({ ...request.parameters, orderby: '', pagination: '' });
}
