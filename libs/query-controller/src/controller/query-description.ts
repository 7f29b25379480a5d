import type { ColumnMetadata, QuerySummary } from '@fw/query-core';
import type { QueryDescription } from './query-controller-types';

/** Turns a service {@link QuerySummary} into the public {@link QueryDescription} (no statement id, no SQL columns). */
export function describe(summary: QuerySummary): QueryDescription {
  const columns: ColumnMetadata[] = [...summary.columns].sort((a, b) => a.name.localeCompare(b.name));
  return {
    name: summary.name,
    paginated: summary.paginated,
    tenantSpecific: summary.tenantSpecific,
    acls: [...summary.acls],
    filters: columns
      .filter((c) => c.filterable)
      .map((c) => ({
        name: c.name,
        columnType: c.columnType ?? null,
        likeQuery: c.likeQuery,
        containsQuery: c.containsQuery,
        betweenQuery: c.betweenQuery,
      })),
    sortable: columns.filter((c) => c.sortable).map((c) => c.name),
  };
}
