import { quoteIdentifier } from '../search/sql-fragments';
import type { SortSpec } from '../search/search-types';

/** A column of the derived table `q` the statement is wrapped in (the last segment of a dotted name). */
export function wrapperColumn(column: string): string {
  return quoteIdentifier(`q.${column.split('.').pop() as string}`);
}

/** `ORDER BY` over the derived table, each direction reversed when reading backwards. */
export function keysetOrderBy(sort: readonly SortSpec[], backward: boolean): string {
  if (sort.length === 0) return '';
  return `ORDER BY ${sort.map((s) => `${wrapperColumn(s.column)} ${s.ascending !== backward ? 'ASC' : 'DESC'}`).join(', ')}`;
}

/**
 * The condition "after the row with sort-key `values`" (before it when `backward`), with bind
 * placeholders numbered from `firstPlaceholder`. When every key sorts the same way it is one
 * row-value comparison, `(q."a", q."id") > ($3, $4)`, which PostgreSQL answers with an index
 * range scan on `(a, id)`; mixed directions need the expanded form
 * `(a > $3) OR (a = $3 AND id < $4)`.
 *
 * @example
 * keysetCondition([{ field: 'id', column: 'id', ascending: true }], false, 3); // '(q."id") > ($3)'
 */
export function keysetCondition(sort: readonly SortSpec[], backward: boolean, firstPlaceholder: number): string {
  const columns = sort.map((s) => wrapperColumn(s.column));
  const placeholders = sort.map((_, i) => `$${firstPlaceholder + i}`);
  const forward = (s: SortSpec) => s.ascending !== backward;
  if (sort.every((s) => forward(s) === forward(sort[0]))) {
    return `(${columns.join(', ')}) ${forward(sort[0]) ? '>' : '<'} (${placeholders.join(', ')})`;
  }
  const alternatives = sort.map((s, i) => {
    const equal = columns.slice(0, i).map((c, j) => `${c} = ${placeholders[j]}`);
    return `(${[...equal, `${columns[i]} ${forward(s) ? '>' : '<'} ${placeholders[i]}`].join(' AND ')})`;
  });
  return `(${alternatives.join(' OR ')})`;
}
