/**
 * Reads `<resultMap>` elements into {@link ResultMapSpec}s. References to other result maps
 * (`resultMap="..."` on association/collection, `extends="..."`) are qualified with the namespace
 * here and resolved later (see `result-map.ts`). `javaType`, `ofType`, `jdbcType` and `typeHandler`
 * are accepted and ignored. Nested selects (`select="..."`), `constructor` and `discriminator` are
 * refused: use a join with a nested result map instead.
 */
import { ConfigError } from '@fw/core';
import { qualifyId } from './sql-node-compiler';
import { XmlElement, childElements, strayText } from './xml-tree';

/** `column` → `property` (the property may be a dotted path such as `author.name`). */
export interface ColumnMapping {
  readonly property: string;
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
}

const IGNORED_ATTRIBUTES_NOTE = 'javaType, ofType, jdbcType and typeHandler are ignored';

function fail(source: string, where: string, detail: string): never {
  throw new ConfigError(`${source}: ${where} ${detail}`);
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

function readBody(element: XmlElement, id: string, namespace: string, source: string, where: string, topLevel: boolean): ResultMapSpec {
  const stray = strayText(element);
  if (stray !== undefined) fail(source, where, `has text "${stray.slice(0, 40)}"; a result map holds only id, result, association and collection elements`);
  const ids: ColumnMapping[] = [];
  const results: ColumnMapping[] = [];
  const nested: NestedMappingSpec[] = [];
  for (const child of childElements(element)) {
    switch (child.name) {
      case 'id':
      case 'result':
        (child.name === 'id' ? ids : results).push({
          property: required(child, 'property', source, where),
          column: required(child, 'column', source, where),
        });
        break;
      case 'association':
      case 'collection': {
        const property = required(child, 'property', source, where);
        if (child.attributes.select !== undefined) {
          fail(source, where, `has <${child.name} property="${property}" select="...">; nested selects are not supported, join the tables and use a nested resultMap`);
        }
        const refAttribute = child.attributes.resultMap?.trim();
        const hasInline = childElements(child).length > 0;
        if (refAttribute && hasInline) fail(source, where, `has <${child.name} property="${property}"> with both a resultMap attribute and inline mappings; use one`);
        if (!refAttribute && !hasInline) fail(source, where, `has <${child.name} property="${property}"> without resultMap="..." or inline id/result mappings; add one`);
        const inlineWhere = `${where} ${child.name} '${property}'`;
        nested.push({
          kind: child.name,
          property,
          columnPrefix: child.attributes.columnPrefix ?? '',
          notNullColumns: (child.attributes.notNullColumn ?? '')
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== ''),
          ref: refAttribute ? qualifyId(namespace, refAttribute) : readBody(child, `${id}[${property}]`, namespace, source, inlineWhere, false),
        });
        break;
      }
      case 'constructor':
      case 'discriminator':
        return fail(source, where, `uses <${child.name}>, which is not supported; map columns with id, result, association and collection`);
      default:
        return fail(source, where, `has unknown element <${child.name}>; allowed: id, result, association, collection (${IGNORED_ATTRIBUTES_NOTE})`);
    }
  }
  const autoMapping = booleanAttribute(element, 'autoMapping', source, where);
  const extendsAttribute = topLevel ? element.attributes.extends?.trim() : undefined;
  return {
    id,
    namespace,
    source,
    ...(autoMapping === undefined ? {} : { autoMapping }),
    ...(extendsAttribute ? { extends: qualifyId(namespace, extendsAttribute) } : {}),
    ids,
    results,
    nested,
  };
}

/**
 * Reads one top-level `<resultMap id="...">`.
 *
 * @throws ConfigError naming `source` and the result map for anything unsupported or missing.
 */
export function parseResultMap(element: XmlElement, namespace: string, source: string): ResultMapSpec {
  const id = required(element, 'id', source, 'a <resultMap>');
  if (id.includes('.')) fail(source, `resultMap '${id}'`, 'has a dot in its id; ids are local to the namespace, remove the dot');
  return readBody(element, `${namespace}.${id}`, namespace, source, `resultMap '${id}'`, true);
}
