/**
 * The dashboard's tables: rows under typed columns, with what surrounds them in every list view —
 * a loading line until the first answer, a sentence when there are no rows, and the page controls
 * of an API page. One component so that every list looks and behaves alike (row links for `j`/`k`,
 * sideways scrolling on narrow screens).
 *
 * @example
 * const columns: Column<Crontab>[] = [
 *   { header: 'Name', cell: (c) => c.name },
 *   { header: 'Expression', cell: (c) => <code>{c.cronExpression}</code>, className: 'mono' },
 * ];
 * <DataTable label="Cron schedules" columns={columns} rows={data?.content} rowKey={(c) => c.id}
 *   loading="schedules" error={query.error} empty="No schedule yet." pagination={{ label: 'Schedules', page: data, onPage: setPage }} />
 */
import { Fragment, type ReactNode, type Ref, type TdHTMLAttributes } from 'react';
import { Empty, Loading } from './feedback';
import { Pagination, type PaginationProps } from './pagination';

/** One column: its header and what a row shows in it. */
export interface Column<Row> {
  header: ReactNode;
  cell(row: Row): ReactNode;
  /** Class of the column's cells (`mono`, `small`, `num`, `actions`). */
  className?: string;
  /** The cells name their row (`<th scope="row">`) instead of being data cells. */
  rowHeader?: boolean;
  /** More attributes of one row's cell (a title, an indent). */
  cellProps?(row: Row): TdHTMLAttributes<HTMLTableCellElement>;
}

/** One `<tr>` of `row` under `columns`; for a view that draws more than the row itself (child rows). */
export function TableRow<Row>({
  columns,
  row,
  className,
}: {
  columns: readonly Column<Row>[];
  row: Row;
  className?: string;
}) {
  return (
    <tr className={className}>
      {columns.map((column, i) =>
        column.rowHeader ? (
          <th key={i} scope="row" className={column.className} {...column.cellProps?.(row)}>
            {column.cell(row)}
          </th>
        ) : (
          <td key={i} className={column.className} {...column.cellProps?.(row)}>
            {column.cell(row)}
          </td>
        ),
      )}
    </tr>
  );
}

export interface DataTableProps<Row> {
  /** The table's accessible name ("Executions, newest first"). */
  label: string;
  columns: readonly Column<Row>[];
  /** The rows; undefined until the first answer. */
  rows: readonly Row[] | undefined;
  rowKey(row: Row): string;
  /** What to say when there is no row. */
  empty: ReactNode;
  /** What is loading ("the audit trail"), said while `rows` is undefined; nothing is said without it. */
  loading?: string;
  /** The failure of the read, if any: no loading line then (the view shows the error where it wants it). */
  error?: unknown;
  /** Draws a row when it is more than one `<tr>` (use {@link TableRow} in it); default one `TableRow`. */
  renderRow?(row: Row): ReactNode;
  /** The scrolling container, for the list keys (`j`, `k`, Enter). */
  wrapRef?: Ref<HTMLDivElement>;
  /** Page controls below the table, when the rows are an API page. */
  pagination?: PaginationProps;
}

export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  loading,
  error,
  renderRow,
  wrapRef,
  pagination,
}: DataTableProps<Row>) {
  return (
    <>
      <div className="table-wrap" ref={wrapRef}>
        {rows === undefined && loading !== undefined && !error && <Loading what={loading} />}
        {rows?.length === 0 && <Empty>{empty}</Empty>}
        {rows !== undefined && rows.length > 0 && (
          <table className="grid" aria-label={label}>
            <thead>
              <tr>
                {columns.map((column, i) => (
                  <th key={i} scope="col">
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) =>
                renderRow ? (
                  <Fragment key={rowKey(row)}>{renderRow(row)}</Fragment>
                ) : (
                  <TableRow key={rowKey(row)} columns={columns} row={row} />
                ),
              )}
            </tbody>
          </table>
        )}
      </div>
      {pagination && <Pagination {...pagination} />}
    </>
  );
}
