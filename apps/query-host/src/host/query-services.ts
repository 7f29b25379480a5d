/**
 * The query service as an `@fw/service` service (kind `query`): one operation per
 * named query, `POST /q/{name}`, its input schema built from the query's metadata — the filters
 * it allows (list or range forms where the column says so) and the columns it can sort by. The
 * query router and its fast path serve the HTTP routes (`httpBinding: 'host'`); in-process
 * `invoke` runs the search for the call's tenant.
 */
import type { Logger } from '@fw/core';
import { COUNT_MODES, MAX_PAGE_NUM, type ColumnMetadata, type QueryService, type QuerySummary } from '@fw/query-core';
import { defineService, type JsonSchema, type OperationDefinition, type ServiceDefinition } from '@fw/service';

const OPERATION_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/;
/** The query service's limits on a SearchRequest's lists. */
const MAX_SORT_CRITERIA = 100;
const MAX_FIELD_NAMES = 1000;
const FIELD_NAME_MAX_LENGTH = 200;

function valueSchema(column: ColumnMetadata): JsonSchema {
  const scalar: JsonSchema =
    column.columnType === 'Number'
      ? { type: 'number' }
      : column.columnType === 'Boolean'
        ? { type: 'boolean' }
        : { type: 'string' };
  if (column.betweenQuery) return { anyOf: [scalar, { type: 'array', items: scalar, minItems: 2, maxItems: 2 }] };
  if (column.containsQuery) return { anyOf: [scalar, { type: 'array', items: scalar, minItems: 1 }] };
  return scalar;
}

/**
 * The SearchRequest of one query: its filters and sortable columns spelled out, with the limits
 * the query service checks (pages, page size, sort and field lists), so a request this schema
 * admits is not refused for its shape.
 */
export function searchRequestSchema(summary: QuerySummary, limits: { maxRowsInPage: number }): JsonSchema {
  const filters = Object.fromEntries(summary.columns.filter((c) => c.filterable).map((c) => [c.name, valueSchema(c)]));
  const sortable = summary.columns.filter((c) => c.sortable).map((c) => c.name);
  const sortItem = {
    type: 'object',
    required: ['name'],
    properties: { name: { enum: sortable }, ascendingOrder: { type: 'boolean' } },
    additionalProperties: false,
  };
  return {
    type: 'object',
    properties: {
      filters: { type: 'object', additionalProperties: false, properties: filters },
      // A query without sortable columns takes no sort criteria at all.
      sortCriteria:
        sortable.length > 0
          ? { type: 'array', maxItems: MAX_SORT_CRITERIA, items: sortItem }
          : { type: 'array', maxItems: 0 },
      pageNum: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NUM },
      numRowsInPage: { type: 'integer', minimum: 1, maximum: limits.maxRowsInPage },
      fields: {
        type: 'array',
        maxItems: MAX_FIELD_NAMES,
        items: { type: 'string', minLength: 1, maxLength: FIELD_NAME_MAX_LENGTH },
        description: 'The fields each row keeps',
      },
      countOnly: { type: 'boolean' },
      cursor: {
        type: 'string',
        minLength: 1,
        maxLength: 8192,
        description:
          'The nextCursor or prevCursor of an earlier answer (queries with keyset paging), instead of pageNum',
      },
      countMode: {
        type: 'string',
        enum: [...COUNT_MODES],
        description: 'How the total is counted; at most what the query allows (exact > planned > none)',
      },
    },
  };
}

/**
 * The SearchResponse payload as far as every query shares it: each listed item has its row (the
 * columns of that query, any keys) and the paging facts are an object of their own. Objects of
 * any keys say so (`additionalProperties: true`): generators read a bare `type: object` as one
 * with no properties.
 */
const SEARCH_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['list', 'pagination'],
  properties: {
    list: {
      type: 'array',
      items: {
        type: 'object',
        required: ['row'],
        properties: { row: { type: 'object', additionalProperties: true, description: 'The columns of one row' } },
        additionalProperties: true,
      },
    },
    pagination: { type: 'object', additionalProperties: true },
    maxRows: { type: ['integer', 'null'] },
  },
  additionalProperties: true,
};

/**
 * The queries every configured tenant sees, by name (a tenant's own override of a query keeps the
 * first description found). Names that are not operation names are left out of the listing.
 */
function visibleQueries(queryService: QueryService, tenants: readonly string[], logger: Logger): QuerySummary[] {
  const byName = new Map<string, QuerySummary>();
  for (const tenantId of tenants) {
    try {
      for (const q of queryService.listQueries({ tenantId })) if (!byName.has(q.name)) byName.set(q.name, q);
    } catch (err) {
      logger.warn({ err, tenantId }, 'could not list the queries of a tenant for /service-info');
    }
  }
  return [...byName.values()].filter((q) => OPERATION_NAME.test(q.name)).sort((a, b) => a.name.localeCompare(b.name));
}

export interface QueryServiceDefinitionOptions {
  queryService: QueryService;
  /** The largest `numRowsInPage` the service takes (`query.pagination.maxRowsInPage`). */
  maxRowsInPage: number;
  version: string;
  tenants: readonly string[];
  details: () => Record<string, unknown>;
  healthCheck: () => Promise<{ healthy: boolean; checks: Array<{ name: string; healthy: boolean; message?: string }> }>;
  /**
   * The host's ACL check for calls that do not come through its HTTP routes (in-process `invoke`,
   * `/mcp`), from the call's headers; without it acls are not enforced, as over HTTP.
   */
  authorize?: (headers: Readonly<Record<string, string>>, acls: readonly string[]) => boolean | Promise<boolean>;
  logger: Logger;
}

export function defineQueryService(options: QueryServiceDefinitionOptions): ServiceDefinition {
  const { queryService } = options;
  const operations: OperationDefinition[] = visibleQueries(queryService, options.tenants, options.logger).map((q) => ({
    name: q.name,
    description: `Named query '${q.name}' (${q.id})${q.acls.length > 0 ? `, acls ${q.acls.join(', ')}` : ''}`,
    method: 'POST',
    path: `/q/${q.name}`,
    input: searchRequestSchema(q, { maxRowsInPage: options.maxRowsInPage }),
    output: SEARCH_RESPONSE,
    handler: (input: unknown, ctx) => {
      const authorize = options.authorize;
      return queryService.search(q.name, input, {
        tenantId: ctx.tenant,
        ...(authorize ? { authorize: (acls: readonly string[]) => authorize(ctx.headers, acls) } : {}),
      });
    },
  }));
  return defineService({
    name: 'query',
    version: options.version,
    kind: 'query',
    description: 'Named query service: POST /q/{queryName}',
    httpBinding: 'host',
    details: options.details,
    healthCheck: options.healthCheck,
    operations,
  });
}
