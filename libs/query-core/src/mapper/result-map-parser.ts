/**
 * Reads `<resultMap>` elements into {@link ResultMapSpec}s. References to other result maps
 * (`resultMap="..."` on association/collection, `extends="..."`) are qualified with the namespace
 * here and resolved later (see `result-map.ts`). `jdbcType` and `typeHandler` are accepted and
 * ignored; `type`, `ofType` and `javaType` only tell whether a nested value is a scalar (a simple
 * type such as `string`). Nested selects (`select="..."`) are refused by design (use a join with a
 * nested result map); positional `constructor` arguments are not supported. A `discriminator`
 * picks, per row, the map of the `case` whose `value` equals its column's text; an inline case
 * holds the enclosing map's mappings plus its own, a `resultMap` case only the referenced map's.
 */
import { MapperLoadError, type MapperProblemKind } from './mapper-load-error';
import { qualifyId } from './sql-node-compiler';
import { type XmlElement, childElements, strayText } from './xml-tree';

/**
 * `column` → `property` (the property may be a dotted path such as `author.name`). Without a
 * property (`<result column="role"/>`, `<id column="id"/>`) the column is the value of a scalar
 * map, or, in a map of objects, only part of the row's identity (MyBatis maps no property for it).
 */
export interface ColumnMapping {
  readonly property?: string;
  readonly column: string;
}

/** An `association` (one nested object) or a `collection` (a list of nested objects). */
export interface NestedMappingSpec {
  readonly kind: 'association' | 'collection';
  readonly property: string;
  readonly columnPrefix: string;
  /** Columns of which at least one must be non-null for the nested object to exist. */
  readonly notNullColumns: readonly string[];
  /** Qualified id of a referenced result map, or the inline map. */
  readonly ref: string | ResultMapSpec;
  /** `ofType` (collection) or `javaType` (association) names a simple type: the nested value is a scalar. */
  readonly simpleType: boolean;
}

/** One result map as written in XML. */
export interface ResultMapSpec {
  /** Qualified id (`<namespace>.<id>`), or `<parent>[property]` for an inline nested map. */
  readonly id: string;
  readonly namespace: string;
  readonly source: string;
  /** `autoMapping` attribute; undefined means the default (see `result-map.ts`). */
  readonly autoMapping?: boolean;
  /** Qualified id of the result map this one extends. */
  readonly extends?: string;
  readonly ids: readonly ColumnMapping[];
  readonly results: readonly ColumnMapping[];
  readonly nested: readonly NestedMappingSpec[];
  /**
   * True for a map of a simple type (`type`/`ofType`/`javaType` such as `string`, or mappings
   * that all lack a property): nested, its value is its first column's value (a list of scalars).
   */
  readonly simple: boolean;
  /** The first `id`/`result` column in document order (the value of a simple map). */
  readonly firstColumn?: string;
  /** `<discriminator>`: per row, the map of the case matching the column's value replaces this one. */
  readonly discriminator?: DiscriminatorSpec;
  /** Why the map cannot be used; set instead of failing the file, so only statements using it fail. */
  readonly problem?: MapperLoadError;
}

/** A `<discriminator column>` with its `<case value>` maps (qualified id, or the inline map). */
export interface DiscriminatorSpec {
  readonly column: string;
  readonly cases: readonly { readonly value: string; readonly ref: string | ResultMapSpec }[];
}

const IGNORED_ATTRIBUTES_NOTE = 'javaType, ofType, jdbcType and typeHandler are ignored';

/**
 * Type names (MyBatis aliases, case-insensitive, and their Java classes) that have a type handler,
 * so a nested map of that type is one value rather than an object.
 */
const SIMPLE_TYPES = new Set([
  'string',
  'byte',
  'char',
  'character',
  'long',
  'short',
  'int',
  'integer',
  'double',
  'float',
  'boolean',
  'date',
  'decimal',
  'bigdecimal',
  'biginteger',
  'object',
  '_byte',
  '_char',
  '_character',
  '_long',
  '_short',
  '_int',
  '_integer',
  '_double',
  '_float',
  '_boolean',
  'java.lang.string',
  'java.lang.byte',
  'java.lang.character',
  'java.lang.long',
  'java.lang.short',
  'java.lang.integer',
  'java.lang.double',
  'java.lang.float',
  'java.lang.boolean',
  'java.lang.object',
  'java.math.bigdecimal',
  'java.math.biginteger',
  'java.util.date',
  'java.util.uuid',
  'java.sql.date',
  'java.sql.time',
  'java.sql.timestamp',
  'java.time.localdate',
  'java.time.localdatetime',
  'java.time.localtime',
  'java.time.offsetdatetime',
  'java.time.offsettime',
  'java.time.zoneddatetime',
  'java.time.instant',
]);

function fail(source: string, where: string, detail: string, kind: MapperProblemKind = 'invalid'): never {
  throw new MapperLoadError(kind, `${source}: ${where} ${detail}`);
}

function booleanAttribute(element: XmlElement, name: string, source: string, where: string): boolean | undefined {
  const value = element.attributes[name];
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  return fail(source, where, `has ${name}="${value}"; use true or false`);
}

function required(element: XmlElement, name: string, source: string, where: string): string {
  const value = element.attributes[name]?.trim();
  if (!value) fail(source, where, `has <${element.name}> without the required '${name}' attribute; add ${name}="..."`);
  return value;
}

/** Where a map is read, for qualifying references and for messages. */
interface MapContext {
  readonly namespace: string;
  readonly source: string;
  /** E.g. `resultMap 'author'` or `resultMap 'author' collection 'books'`. */
  readonly where: string;
}

function isSimpleType(name: string | undefined): boolean {
  return name !== undefined && SIMPLE_TYPES.has(name.trim().toLowerCase());
}

/** `notNullColumn="a"`, `"a, b"` or MyBatis' brace form `"{a, b}"`. */
export function notNullColumnList(value: string | undefined): string[] {
  return (value ?? '').split(/[{},\s]+/).filter((column) => column !== '');
}

function columnMapping(child: XmlElement, ctx: MapContext): ColumnMapping {
  const property = child.attributes.property?.trim();
  const column = required(child, 'column', ctx.source, ctx.where);
  return property ? { property, column } : { column };
}

/**
 * `<constructor>` arguments with a `name` (MyBatis 3.4.3+) fill that property, as `<id>`/`<result>`
 * would: rows are plain objects, so only named arguments have a meaning here.
 */
function constructorMappings(element: XmlElement, ctx: MapContext): { ids: ColumnMapping[]; results: ColumnMapping[] } {
  const ids: ColumnMapping[] = [];
  const results: ColumnMapping[] = [];
  for (const arg of childElements(element)) {
    if (arg.name !== 'idArg' && arg.name !== 'arg')
      fail(ctx.source, ctx.where, `has <${arg.name}> inside <constructor>; allowed: idArg, arg`);
    const column = arg.attributes.column?.trim() ?? '';
    if (arg.attributes.select !== undefined || arg.attributes.resultMap !== undefined || column === '') {
      fail(
        ctx.source,
        ctx.where,
        `has <constructor><${arg.name}> with select, resultMap or no column, which is not supported; map nested values with <association> or <collection>`,
        'unsupported',
      );
    }
    const name = arg.attributes.name?.trim();
    if (!name) {
      fail(
        ctx.source,
        ctx.where,
        `has <constructor><${arg.name} column="${column}"> without name, which is not supported: positional arguments need a Java class; add name="..." (the property it fills) or write <${arg.name === 'idArg' ? 'id' : 'result'} property="..." column="${column}"/>`,
        'unsupported',
      );
    }
    (arg.name === 'idArg' ? ids : results).push({ property: name, column });
  }
  return { ids, results };
}

function nestedMapping(child: XmlElement, parentId: string, ctx: MapContext): NestedMappingSpec {
  const kind = child.name === 'collection' ? 'collection' : 'association';
  const property = required(child, 'property', ctx.source, ctx.where);
  if (child.attributes.select !== undefined) {
    fail(
      ctx.source,
      ctx.where,
      `has <${kind} property="${property}" select="...">; nested selects are refused (one more query per row, outside the query's metadata): join the tables and use a nested resultMap`,
      'refused',
    );
  }
  if (child.attributes.resultSet !== undefined) {
    fail(
      ctx.source,
      ctx.where,
      `has <${kind} property="${property}" resultSet="...">; multiple result sets are not supported: join the tables and use a nested resultMap`,
      'unsupported',
    );
  }
  const refAttribute = child.attributes.resultMap?.trim();
  const hasInline = childElements(child).length > 0 || child.attributes.autoMapping === 'true';
  if (refAttribute && childElements(child).length > 0)
    fail(
      ctx.source,
      ctx.where,
      `has <${kind} property="${property}"> with both a resultMap attribute and inline mappings; use one`,
    );
  if (!refAttribute && !hasInline) {
    // MyBatis fills it only under autoMappingBehavior FULL (a global setting this engine does not have).
    fail(
      ctx.source,
      ctx.where,
      `has <${kind} property="${property}"> without resultMap="...", inline id/result mappings or autoMapping="true"; add one (MyBatis maps it only with autoMappingBehavior FULL)`,
      'unsupported',
    );
  }
  const typeName = kind === 'collection' ? child.attributes.ofType : child.attributes.javaType;
  const inline = { ...ctx, where: `${ctx.where} ${kind} '${property}'` };
  return {
    kind,
    property,
    columnPrefix: child.attributes.columnPrefix ?? '',
    notNullColumns: notNullColumnList(child.attributes.notNullColumn),
    ref: refAttribute
      ? qualifyId(ctx.namespace, refAttribute)
      : readBody(child, `${parentId}[${property}]`, inline, typeName),
    simpleType: isSimpleType(typeName),
  };
}

function readBody(
  element: XmlElement,
  id: string,
  ctx: MapContext,
  typeName: string | undefined,
  extendsAttribute?: string,
): ResultMapSpec {
  const stray = strayText(element);
  if (stray !== undefined)
    fail(
      ctx.source,
      ctx.where,
      `has text "${stray.slice(0, 40)}"; a result map holds only id, result, association and collection elements`,
    );
  const ids: ColumnMapping[] = [];
  const results: ColumnMapping[] = [];
  const nested: NestedMappingSpec[] = [];
  let firstColumn: string | undefined;
  let discriminatorElement: XmlElement | undefined;
  for (const child of childElements(element)) {
    if (child.name === 'id' || child.name === 'result') {
      const mapping = columnMapping(child, ctx);
      (child.name === 'id' ? ids : results).push(mapping);
      firstColumn ??= mapping.column;
    } else if (child.name === 'constructor') {
      const args = constructorMappings(child, ctx);
      ids.push(...args.ids);
      results.push(...args.results);
      firstColumn ??= [...args.ids, ...args.results][0]?.column;
    } else if (child.name === 'association' || child.name === 'collection') {
      nested.push(nestedMapping(child, id, ctx));
    } else if (child.name === 'discriminator') {
      discriminatorElement = child;
    } else {
      fail(
        ctx.source,
        ctx.where,
        `has unknown element <${child.name}>; allowed: constructor, id, result, association, collection (${IGNORED_ATTRIBUTES_NOTE})`,
      );
    }
  }
  const mappings = [...ids, ...results];
  const discriminator = discriminatorElement
    ? readDiscriminator(discriminatorElement, id, ctx, { ids, results, nested })
    : undefined;
  const autoMapping = booleanAttribute(element, 'autoMapping', ctx.source, ctx.where);
  const simple =
    isSimpleType(typeName) ||
    (mappings.length > 0 && nested.length === 0 && mappings.every((m) => m.property === undefined));
  return {
    id,
    namespace: ctx.namespace,
    source: ctx.source,
    ...(autoMapping === undefined ? {} : { autoMapping }),
    ...(extendsAttribute ? { extends: qualifyId(ctx.namespace, extendsAttribute) } : {}),
    ids,
    results,
    nested,
    simple,
    ...(firstColumn === undefined ? {} : { firstColumn }),
    ...(discriminator === undefined ? {} : { discriminator }),
  };
}

/**
 * `<discriminator column="..."><case value="..." resultMap="..."/>...</discriminator>`. As in
 * MyBatis, an inline case (no `resultMap`) is a map holding the enclosing map's mappings and its
 * own; a case with `resultMap` uses that map alone (write `extends` on it to keep the enclosing
 * mappings). `javaType`, `jdbcType` and `typeHandler` are ignored: values compare as text.
 */
function readDiscriminator(
  element: XmlElement,
  parentId: string,
  ctx: MapContext,
  enclosing: Pick<ResultMapSpec, 'ids' | 'results' | 'nested'>,
): DiscriminatorSpec {
  const column = required(element, 'column', ctx.source, ctx.where);
  const cases: { value: string; ref: string | ResultMapSpec }[] = [];
  for (const child of childElements(element)) {
    if (child.name !== 'case')
      fail(ctx.source, ctx.where, `has <${child.name}> inside <discriminator>; only <case value="..."> is allowed`);
    const value = child.attributes.value;
    if (value === undefined)
      fail(ctx.source, ctx.where, `has a <case> without the required 'value' attribute; add value="..."`);
    const refAttribute = child.attributes.resultMap?.trim();
    if (refAttribute) {
      cases.push({ value, ref: qualifyId(ctx.namespace, refAttribute) });
      continue;
    }
    const inline = readBody(
      child,
      `${parentId}[case ${value}]`,
      { ...ctx, where: `${ctx.where} case '${value}'` },
      child.attributes.resultType,
    );
    cases.push({
      value,
      ref: {
        ...inline,
        ids: [...enclosing.ids, ...inline.ids],
        results: [...enclosing.results, ...inline.results],
        nested: [...enclosing.nested, ...inline.nested],
      },
    });
  }
  return { column, cases };
}

/**
 * Reads one top-level `<resultMap id="...">`. A problem inside the map does not throw: it is kept
 * as the map's `problem`, so that only the statements using the map fail (and say why).
 *
 * @throws MapperLoadError only when the element has no usable id.
 */
export function parseResultMap(element: XmlElement, namespace: string, source: string): ResultMapSpec {
  const id = required(element, 'id', source, 'a <resultMap>');
  if (id.includes('.'))
    fail(source, `resultMap '${id}'`, 'has a dot in its id; ids are local to the namespace, remove the dot');
  const qualified = `${namespace}.${id}`;
  try {
    return readBody(
      element,
      qualified,
      { namespace, source, where: `resultMap '${id}'` },
      element.attributes.type,
      element.attributes.extends?.trim(),
    );
  } catch (error) {
    if (!(error instanceof MapperLoadError)) throw error;
    return { id: qualified, namespace, source, ids: [], results: [], nested: [], simple: false, problem: error };
  }
}
