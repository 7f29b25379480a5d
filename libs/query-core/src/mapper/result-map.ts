/**
 * Result mapping with MyBatis semantics, for rows as PostgreSQL returns them (plain objects).
 *
 * - Columns match case-insensitively; an association or collection's `columnPrefix` is added to
 *   its parent's prefix.
 * - Automatic mapping (copying columns that no `id`/`result` maps, under their own names): on by
 *   default for a statement whose result map has no association/collection, off by default in
 *   the nested case (MyBatis `autoMappingBehavior=PARTIAL`); `autoMapping="true|false"` on a map
 *   overrides. Prefixed nested maps auto-map only their prefixed columns, prefix stripped.
 * - With nested maps, rows are grouped by the values of the map's `id` columns (all its mapped
 *   columns when it has no `id`), keeping first-seen order, even when equal ids are not
 *   adjacent. A collection holds one child per distinct child key; a child whose columns are all
 *   null (outer join without a match) is skipped, and such an association is `null`.
 * - Mapped `null` values are kept as `null` properties.
 */
import { ConfigError } from '@fw/core';
import { ColumnMapping, NestedMappingSpec, ResultMapSpec } from './result-map-parser';

/** A result map with every reference and `extends` resolved and prefixes applied. */
export interface ResolvedResultMap {
  readonly id: string;
  readonly autoMapping?: boolean;
  readonly prefix: string;
  readonly ids: readonly ColumnMapping[];
  readonly results: readonly ColumnMapping[];
  readonly nested: readonly ResolvedNestedMapping[];
}

export interface ResolvedNestedMapping {
  readonly kind: 'association' | 'collection';
  readonly property: string;
  readonly notNullColumns: readonly string[];
  readonly map: ResolvedResultMap;
}

/** Finds a result map by qualified id. */
export type ResultMapLookup = (qualifiedId: string) => ResultMapSpec | undefined;

function merged(spec: ResultMapSpec, lookup: ResultMapLookup, chain: readonly string[], where: string): ResultMapSpec {
  if (!spec.extends) return spec;
  if (chain.includes(spec.extends)) throw new ConfigError(`${where} extends '${spec.extends}' in a cycle (${[...chain, spec.extends].join(' -> ')}); remove the cycle`);
  const parentSpec = lookup(spec.extends);
  if (!parentSpec) throw new ConfigError(`${where} extends unknown resultMap '${spec.extends}'; define it or fix the extends attribute`);
  const parent = merged(parentSpec, lookup, [...chain, spec.extends], where);
  const own = new Set([...spec.ids, ...spec.results].map((m) => m.property));
  const ownNested = new Set(spec.nested.map((n) => n.property));
  return {
    ...spec,
    autoMapping: spec.autoMapping ?? parent.autoMapping,
    ids: [...parent.ids.filter((m) => !own.has(m.property)), ...spec.ids],
    results: [...parent.results.filter((m) => !own.has(m.property)), ...spec.results],
    nested: [...parent.nested.filter((n) => !ownNested.has(n.property)), ...spec.nested],
  };
}

/**
 * Resolves `spec` (and everything it references) into a {@link ResolvedResultMap}.
 *
 * @param where - `<source>: select '<id>'`, the start of any error message.
 * @throws ConfigError for an unknown reference or a reference cycle.
 */
export function resolveResultMap(spec: ResultMapSpec, lookup: ResultMapLookup, where: string, prefix = '', chain: readonly string[] = []): ResolvedResultMap {
  if (chain.includes(spec.id)) {
    throw new ConfigError(`${where} uses resultMap '${spec.id}' recursively (${[...chain, spec.id].join(' -> ')}); nested result maps must not refer back to themselves`);
  }
  const full = merged(spec, lookup, [spec.id], where);
  const nested = full.nested.map((n: NestedMappingSpec): ResolvedNestedMapping => {
    const target = typeof n.ref === 'string' ? lookup(n.ref) : n.ref;
    if (!target) {
      throw new ConfigError(`${where} uses resultMap '${spec.id}' whose ${n.kind} '${n.property}' refers to unknown resultMap '${String(n.ref)}'; define it or fix the reference`);
    }
    const childPrefix = prefix + n.columnPrefix;
    return {
      kind: n.kind,
      property: n.property,
      notNullColumns: n.notNullColumns.map((c) => childPrefix + c),
      map: resolveResultMap(target, lookup, where, childPrefix, [...chain, spec.id]),
    };
  });
  return {
    id: full.id,
    ...(full.autoMapping === undefined ? {} : { autoMapping: full.autoMapping }),
    prefix,
    ids: full.ids,
    results: full.results,
    nested,
  };
}

type Row = Record<string, unknown>;

/** Lower-case column name → actual key, computed once per result set. */
type ColumnIndex = ReadonlyMap<string, string>;

function columnIndex(rows: readonly Row[]): ColumnIndex {
  const index = new Map<string, string>();
  for (const key of Object.keys(rows[0] ?? {})) if (!index.has(key.toLowerCase())) index.set(key.toLowerCase(), key);
  return index;
}

function read(row: Row, columns: ColumnIndex, column: string): unknown {
  const key = columns.get(column.toLowerCase());
  return key === undefined ? null : (row[key] ?? null);
}

function setPath(target: Row, property: string, value: unknown): void {
  const path = property.split('.');
  let node = target;
  for (const segment of path.slice(0, -1)) {
    const next = node[segment];
    if (typeof next !== 'object' || next === null) node[segment] = {};
    node = node[segment] as Row;
  }
  node[path[path.length - 1]] = value;
}

function mappedColumns(map: ResolvedResultMap): string[] {
  return [...map.ids, ...map.results].map((m) => map.prefix + m.column);
}

/** Columns copied by automatic mapping: `[actual key, property]`. */
function autoColumns(map: ResolvedResultMap, columns: ColumnIndex, enabled: boolean): [string, string][] {
  if (!enabled) return [];
  const explicit = new Set(mappedColumns(map).map((c) => c.toLowerCase()));
  const prefix = map.prefix.toLowerCase();
  const result: [string, string][] = [];
  for (const [lower, key] of columns) {
    if (explicit.has(lower) || !lower.startsWith(prefix)) continue;
    result.push([key, key.slice(prefix.length)]);
  }
  return result;
}

function keyText(value: unknown): string {
  if (value instanceof Date) return `d:${value.getTime()}`;
  if (typeof value === 'bigint') return `n:${value}`;
  if (value instanceof Uint8Array) return `b:${Buffer.from(value).toString('hex')}`;
  return JSON.stringify(value ?? null);
}

class Mapper {
  constructor(
    private readonly columns: ColumnIndex,
    private readonly defaultAutoMapping: boolean,
  ) {}

  private identity(map: ResolvedResultMap, row: Row): string {
    const keyColumns = map.ids.length > 0 ? map.ids.map((m) => map.prefix + m.column) : mappedColumns(map);
    const values = keyColumns.length > 0 ? keyColumns.map((c) => read(row, this.columns, c)) : autoColumns(map, this.columns, true).map(([key]) => row[key]);
    return values.map(keyText).join('|');
  }

  private isEmpty(map: ResolvedResultMap, row: Row, notNullColumns: readonly string[]): boolean {
    const columns = notNullColumns.length > 0 ? notNullColumns : mappedColumns(map);
    if (columns.length > 0) return columns.every((c) => read(row, this.columns, c) === null);
    return autoColumns(map, this.columns, true).every(([key]) => row[key] === null || row[key] === undefined);
  }

  private build(map: ResolvedResultMap, rows: readonly Row[]): Row {
    const first = rows[0];
    const target: Row = {};
    for (const [key, property] of autoColumns(map, this.columns, map.autoMapping ?? this.defaultAutoMapping)) target[property] = first[key] ?? null;
    for (const m of [...map.ids, ...map.results]) setPath(target, m.property, read(first, this.columns, map.prefix + m.column));
    for (const n of map.nested) {
      const present = rows.filter((row) => !this.isEmpty(n.map, row, n.notNullColumns));
      const children = this.group(n.map, present);
      setPath(target, n.property, n.kind === 'collection' ? children : (children[0] ?? null));
    }
    return target;
  }

  /** Groups `rows` by the identity of `map` and builds one object per group. */
  group(map: ResolvedResultMap, rows: readonly Row[]): Row[] {
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const key = this.identity(map, row);
      const list = groups.get(key);
      if (list) list.push(row);
      else groups.set(key, [row]);
    }
    return [...groups.values()].map((groupRows) => this.build(map, groupRows));
  }

  /** One object per row (no nested maps, so no grouping). */
  each(map: ResolvedResultMap, rows: readonly Row[]): Row[] {
    return rows.map((row) => this.build(map, [row]));
  }
}

/**
 * Maps database rows through a resolved result map.
 *
 * @example
 * mapResultRows(authorWithBooks, rows); // [{ id: 1, name: 'Le Guin', books: [{ id: 7, title: '...' }] }]
 */
export function mapResultRows(map: ResolvedResultMap, rows: readonly Row[]): Row[] {
  if (rows.length === 0) return [];
  const hasNested = map.nested.length > 0;
  const mapper = new Mapper(columnIndex(rows), !hasNested);
  return hasNested ? mapper.group(map, rows) : mapper.each(map, rows);
}
