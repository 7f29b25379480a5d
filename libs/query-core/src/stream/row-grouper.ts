type Row = Record<string, unknown>;

/** Turns raw rows into mapped objects as they arrive; see {@link makeRowGrouper}. */
export interface RowGrouper {
  /** The objects completed by these rows (the last object may still grow, so it is held back). */
  push(rows: readonly Row[]): Row[];
  /** The object still held back, at the end of the rows. */
  flush(): Row[];
}

function keyText(value: unknown): string {
  if (value instanceof Date) return `d:${value.getTime()}`;
  return JSON.stringify(value ?? null) ?? 'null';
}

/**
 * Groups rows that arrive ordered by `keyColumns` (compared ignoring case, like the result map)
 * and maps each group with `map` once its last row has gone by — the streaming form of a nested
 * result map: memory holds one object's rows, not the result. Without key columns every row is
 * mapped at once.
 *
 * @example
 * const grouper = makeRowGrouper(['author_id'], (rows) => statement.mapRows(rows));
 * for await (const batch of batches) send(grouper.push(batch));
 * send(grouper.flush());
 */
export function makeRowGrouper(keyColumns: readonly string[] | undefined, map: (rows: Row[]) => Row[]): RowGrouper {
  if (!keyColumns || keyColumns.length === 0)
    return { push: (rows) => (rows.length === 0 ? [] : map([...rows])), flush: () => [] };
  let actualKeys: string[] | undefined;
  let current: Row[] = [];
  let currentKey: string | undefined;
  const keyOf = (row: Row): string => {
    actualKeys ??= keyColumns.map(
      (column) => Object.keys(row).find((k) => k.toLowerCase() === column.toLowerCase()) ?? column,
    );
    return actualKeys.map((k) => keyText(row[k])).join('|');
  };
  return {
    push(rows) {
      const done: Row[] = [];
      for (const row of rows) {
        const key = keyOf(row);
        if (key !== currentKey && current.length > 0) {
          done.push(...map(current));
          current = [];
        }
        currentKey = key;
        current.push(row);
      }
      return done;
    },
    flush() {
      const rest = current.length > 0 ? map(current) : [];
      current = [];
      currentKey = undefined;
      return rest;
    },
  };
}
