/**
 * Contracts of the MyBatis-compatible SQL engine. A mapper XML file is parsed into a
 * {@link MapperDocument}; documents are collected in a {@link MapperRegistry}; each
 * {@link MappedStatement} renders parameterised SQL from one flat parameter map.
 */

/** SQL text with `$1..$n` placeholders and the values bound to them. Values never enter the text. */
export interface BoundSql {
  sql: string;
  values: unknown[];
}

/** Names of the two framework-filled text substitutions; any other `${...}` is refused at load. */
export const FRAMEWORK_SUBSTITUTIONS = ['orderby', 'pagination'] as const;
export type FrameworkSubstitution = (typeof FRAMEWORK_SUBSTITUTIONS)[number];

/** One `<select>` statement, ready to render. */
export interface MappedStatement {
  /** `<namespace>.<statement id>` — what query definitions reference as `id`. */
  readonly id: string;
  readonly namespace: string;
  readonly statementId: string;
  readonly resultType?: string;
  /** Fully-qualified id of the `resultMap` the statement uses, if any. */
  readonly resultMapId?: string;
  /** True when the statement text contains `${orderby}` (the framework then does not wrap it). */
  readonly usesOrderBy: boolean;
  /** True when the statement text contains `${pagination}`. */
  readonly usesPagination: boolean;
  /** Where it came from (file path or `catalog:<namespace>`), for error messages. */
  readonly source: string;
  /**
   * Renders the dynamic SQL for `parameters`. `#{x}` becomes a bind placeholder; `${orderby}` and
   * `${pagination}` insert `parameters.orderby` / `parameters.pagination` as text (the framework
   * builds both from allow-listed metadata; absent or null inserts nothing).
   */
  render(parameters: Readonly<Record<string, unknown>>): BoundSql;
  /** Applies the statement's resultMap (nesting collections/associations); identity without one. */
  mapRows(rows: Record<string, unknown>[]): Record<string, unknown>[];
  /** The `timeout` attribute (seconds), when written. */
  readonly timeoutSeconds?: number;
  /** The mapper's `<cache>` as it applies to this statement (absent: not cached, or `useCache="false"`). */
  readonly cache?: { readonly ttlMillis: number; readonly size: number };
  /**
   * Columns identifying one top-level object when the result map nests collections or
   * associations (a stream orders by them and maps each object's rows together); undefined when
   * every row is one object.
   */
  groupKeyColumns?(): readonly string[] | undefined;
}

/** A parsed mapper file: its namespace and statements. */
export interface MapperDocument {
  readonly namespace: string;
  readonly source: string;
  readonly statements: readonly MappedStatement[];
}
