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
 *   adjacent. A collection holds one child per distinct child key.
 * - A nested object exists in a row only when something would be set on it, as MyBatis decides:
 *   a column mapped to a property (or auto-mapped) is non-null, a scalar map's column is non-null,
 *   or one of its own nested objects exists. Columns mapped without a property only identify the
 *   child (a parent key repeated in the child's `<id column>`), so they do not make it exist: the
 *   parent of an outer join without a match gets an empty list, or a `null` association. With
 *   `notNullColumn`, at least one of those columns (prefix applied) must be non-null first.
 * - Mapped `null` values are kept as `null` properties.
 * - A nested map of a simple type (`ofType="string"`, or only property-less mappings) yields its
 *   first column's value: `<collection property="roles" ofType="string"><result column="role"/>`
 *   is a list of strings. An `<id column>` without property in a map of objects only identifies rows.
 */
import { ConfigError } from '@fw/core';
import { MapperLoadError } from './mapper-load-error';
import { type ColumnMapping, type NestedMappingSpec, type ResultMapSpec } from './result-map-parser';

/** A result map with every reference and `extends` resolved and prefixes applied. */
export interface ResolvedResultMap {
  readonly id: string;
  readonly autoMapping?: boolean;
  readonly prefix: string;
  /** For a nested map of a simple type: the column (before the prefix) whose value is the nested value. */
  readonly scalarColumn?: string;
  readonly ids: readonly ColumnMapping[];
  readonly results: readonly ColumnMapping[];
  readonly nested: readonly ResolvedNestedMapping[];
  /** Per row, the case map whose value equals the text of `column` (prefix applied) replaces this map. */
  readonly discriminator?: { readonly column: string; readonly cases: ReadonlyMap<string, ResolvedResultMap> };
}

export interface ResolvedNestedMapping {
  readonly kind: 'association' | 'collection';
  readonly property: string;
  readonly notNullColumns: readonly string[];
  readonly map: ResolvedResultMap;
}

/** Finds a result map by qualified id. */
export type ResultMapLookup = (qualifiedId: string) => ResultMapSpec | undefined;

function unusable(spec: ResultMapSpec, where: string): MapperLoadError | undefined {
  if (!spec.problem) return undefined;
  // Said once: the file is in `where` already when the map is in the statement's own file.
  const sameFile = where.startsWith(`${spec.source}: `) && spec.problem.message.startsWith(`${spec.source}: `);
  const detail = sameFile ? spec.problem.message.slice(spec.source.length + 2) : spec.problem.message;
  return new MapperLoadError(
    spec.problem.kind,
    `${where} uses resultMap '${spec.id}', which does not load: ${detail}`,
    { cause: spec.problem },
  );
}

function merged(spec: ResultMapSpec, lookup: ResultMapLookup, chain: readonly string[], where: string): ResultMapSpec {
  const problem = unusable(spec, where);
  if (problem) throw problem;
  if (!spec.extends) return spec;
  if (chain.includes(spec.extends))
    throw new ConfigError(
      `${where} extends '${spec.extends}' in a cycle (${[...chain, spec.extends].join(' -> ')}); remove the cycle`,
    );
  const parentSpec = lookup(spec.extends);
  if (!parentSpec)
    throw new ConfigError(
      `${where} extends unknown resultMap '${spec.extends}'; define it or fix the extends attribute`,
    );
  const parent = merged(parentSpec, lookup, [...chain, spec.extends], where);
  const own = new Set([...spec.ids, ...spec.results].flatMap((m) => (m.property === undefined ? [] : [m.property])));
  const overridden = (m: ColumnMapping): boolean => m.property !== undefined && own.has(m.property);
  const ownNested = new Set(spec.nested.map((n) => n.property));
  return {
    ...spec,
    autoMapping: spec.autoMapping ?? parent.autoMapping,
    ids: [...parent.ids.filter((m) => !overridden(m)), ...spec.ids],
    results: [...parent.results.filter((m) => !overridden(m)), ...spec.results],
    nested: [...parent.nested.filter((n) => !ownNested.has(n.property)), ...spec.nested],
    firstColumn: parent.firstColumn ?? spec.firstColumn,
  };
}

/** A top-level map of a simple type keeps rows as objects: a mapping without property is named after its column. */
function namedByColumn(mappings: readonly ColumnMapping[]): ColumnMapping[] {
  return mappings.map((m) => (m.property === undefined ? { property: m.column, column: m.column } : m));
}

/**
 * Resolves `spec` (and everything it references) into a {@link ResolvedResultMap}.
 *
 * @param where - `<source>: select '<id>'`, the start of any error message.
 * @param nesting - set when `spec` is nested: the mapping that holds it (its type may make it a scalar).
 * @throws ConfigError for an unknown reference, a reference cycle or a map that does not load.
 */
export function resolveResultMap(
  spec: ResultMapSpec,
  lookup: ResultMapLookup,
  where: string,
  prefix = '',
  chain: readonly string[] = [],
  nesting?: NestedMappingSpec,
): ResolvedResultMap {
  if (chain.includes(spec.id)) {
    throw new ConfigError(
      `${where} uses resultMap '${spec.id}' recursively (${[...chain, spec.id].join(' -> ')}); nested result maps must not refer back to themselves`,
    );
  }
  const full = merged(spec, lookup, [spec.id], where);
  const nested = full.nested.map((n: NestedMappingSpec): ResolvedNestedMapping => {
    const target = typeof n.ref === 'string' ? lookup(n.ref) : n.ref;
    if (!target) {
      throw new ConfigError(
        `${where} uses resultMap '${spec.id}' whose ${n.kind} '${n.property}' refers to unknown resultMap '${String(n.ref)}'; define it or fix the reference`,
      );
    }
    const childPrefix = prefix + n.columnPrefix;
    return {
      kind: n.kind,
      property: n.property,
      notNullColumns: n.notNullColumns.map((c) => childPrefix + c),
      map: resolveResultMap(target, lookup, where, childPrefix, [...chain, spec.id], n),
    };
  });
  const discriminator = full.discriminator && {
    column: prefix + full.discriminator.column,
    cases: new Map(
      full.discriminator.cases.map(({ value, ref }): [string, ResolvedResultMap] => {
        const target = typeof ref === 'string' ? lookup(ref) : ref;
        if (!target)
          throw new ConfigError(
            `${where} uses resultMap '${spec.id}' whose discriminator case '${value}' refers to unknown resultMap '${String(ref)}'; define it or fix the reference`,
          );
        return [value, resolveResultMap(target, lookup, where, prefix, [...chain, spec.id], nesting)];
      }),
    ),
  };
  const scalar = nesting !== undefined && (full.simple || nesting.simpleType);
  if (scalar && full.firstColumn === undefined) {
    throw new MapperLoadError(
      'invalid',
      `${where} uses resultMap '${spec.id}' whose ${nesting.kind} '${nesting.property}' holds a simple type but maps no column; add <result column="..."/>`,
    );
  }
  const topLevelSimple = nesting === undefined && full.simple;
  return {
    id: full.id,
    ...(full.autoMapping === undefined ? {} : { autoMapping: full.autoMapping }),
    prefix,
    ...(scalar ? { scalarColumn: full.firstColumn } : {}),
    ids: topLevelSimple ? namedByColumn(full.ids) : full.ids,
    results: topLevelSimple ? namedByColumn(full.results) : full.results,
    nested,
    ...(discriminator ? { discriminator } : {}),
  };
}

type Row = Record<string, unknown>;

/** The discriminator's view of a column value (MyBatis compares `String.valueOf(value)`). */
function caseText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** True when rows must be grouped: the map, or a map its discriminator may pick, nests others. */
function hasNestedMaps(map: ResolvedResultMap, seen = new Set<ResolvedResultMap>()): boolean {
  if (seen.has(map)) return false;
  seen.add(map);
  return map.nested.length > 0 || [...(map.discriminator?.cases.values() ?? [])].some((c) => hasNestedMaps(c, seen));
}

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
  private readonly autoMappedByMap = new Map<ResolvedResultMap, [string, string][]>();

  constructor(
    private readonly columns: ColumnIndex,
    private readonly defaultAutoMapping: boolean,
  ) {}

  /** The map a row is built with: its discriminator's case map, followed while cases lead on (MyBatis' resolveDiscriminatedResultMap). */
  private discriminated(map: ResolvedResultMap, row: Row): ResolvedResultMap {
    let current = map;
    const seen = new Set<ResolvedResultMap>();
    while (current.discriminator && !seen.has(current)) {
      seen.add(current);
      const next = current.discriminator.cases.get(caseText(read(row, this.columns, current.discriminator.column)));
      if (!next) break;
      current = next;
    }
    return current;
  }

  private identity(map: ResolvedResultMap, row: Row): string {
    // The map's id is part of the key, as in MyBatis: rows of two case maps are two objects.
    return `${map.id}|${this.columnsKey(map, row)}`;
  }

  private columnsKey(map: ResolvedResultMap, row: Row): string {
    const keyColumns = map.ids.length > 0 ? map.ids.map((m) => map.prefix + m.column) : mappedColumns(map);
    const values =
      keyColumns.length > 0
        ? keyColumns.map((c) => read(row, this.columns, c))
        : autoColumns(map, this.columns, true).map(([key]) => row[key]);
    return values.map(keyText).join('|');
  }

  /** Columns a map copies by automatic mapping in this result set (computed once per map). */
  private autoMapped(map: ResolvedResultMap): [string, string][] {
    let found = this.autoMappedByMap.get(map);
    if (!found) {
      found = autoColumns(map, this.columns, map.autoMapping ?? this.defaultAutoMapping);
      this.autoMappedByMap.set(map, found);
    }
    return found;
  }

  /** Whether `row` holds an object of the nested mapping `nested` (see the module comment). */
  private exists(nested: ResolvedNestedMapping, row: Row): boolean {
    if (nested.notNullColumns.length > 0 && nested.notNullColumns.every((c) => read(row, this.columns, c) === null))
      return false;
    return this.setsSomething(this.discriminated(nested.map, row), row);
  }

  /** True when building `map` from `row` would set a value: MyBatis' "found values" of a row. */
  private setsSomething(map: ResolvedResultMap, row: Row): boolean {
    if (map.scalarColumn !== undefined) return read(row, this.columns, map.prefix + map.scalarColumn) !== null;
    for (const m of [...map.ids, ...map.results]) {
      if (m.property !== undefined && read(row, this.columns, map.prefix + m.column) !== null) return true;
    }
    if (this.autoMapped(map).some(([key]) => row[key] !== null && row[key] !== undefined)) return true;
    return map.nested.some((n) => this.exists(n, row));
  }

  /** The nested value of one group: its scalar column's value for a simple map, else an object. */
  private build(base: ResolvedResultMap, rows: readonly Row[]): unknown {
    const map = this.discriminated(base, rows[0]);
    return map.scalarColumn === undefined
      ? this.buildObject(map, rows)
      : read(rows[0], this.columns, map.prefix + map.scalarColumn);
  }

  private buildObject(base: ResolvedResultMap, rows: readonly Row[]): Row {
    const first = rows[0];
    const map = this.discriminated(base, first);
    const target: Row = {};
    for (const [key, property] of this.autoMapped(map)) target[property] = first[key] ?? null;
    for (const m of [...map.ids, ...map.results]) {
      // A mapping without property only identifies the row (MyBatis maps nothing for it).
      if (m.property !== undefined) setPath(target, m.property, read(first, this.columns, map.prefix + m.column));
    }
    for (const n of map.nested) {
      const present = rows.filter((row) => this.exists(n, row));
      const children = this.groups(n.map, present).map((groupRows) => this.build(n.map, groupRows));
      setPath(target, n.property, n.kind === 'collection' ? children : (children[0] ?? null));
    }
    return target;
  }

  /** `rows` grouped by the identity of `map`, in first-seen order. */
  private groups(map: ResolvedResultMap, rows: readonly Row[]): Row[][] {
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const key = this.identity(this.discriminated(map, row), row);
      const list = groups.get(key);
      if (list) list.push(row);
      else groups.set(key, [row]);
    }
    return [...groups.values()];
  }

  /** One object per group of rows with the same identity (a top-level map with nested maps). */
  group(map: ResolvedResultMap, rows: readonly Row[]): Row[] {
    return this.groups(map, rows).map((groupRows) => this.buildObject(map, groupRows));
  }

  /** One object per row (no nested maps, so no grouping). */
  each(map: ResolvedResultMap, rows: readonly Row[]): Row[] {
    return rows.map((row) => this.buildObject(map, [row]));
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
  const hasNested = hasNestedMaps(map);
  const mapper = new Mapper(columnIndex(rows), !hasNested);
  return hasNested ? mapper.group(map, rows) : mapper.each(map, rows);
}
