/**
 * Loads a MyBatis-compatible mapper XML file into a {@link ParsedMapperDocument}.
 *
 * Accepted at the top level: `select`, `sql`, `resultMap`, and — ignored, as they only tune
 * MyBatis' cache — `cache`, `cache-ref` and `parameterMap`. `insert`, `update` and `delete` are
 * refused: the named query service is a read API. The XML declaration, a DOCTYPE, comments and
 * CDATA sections are fine.
 *
 * Everything that can be checked without other mapper files is checked here and reported as a
 * {@link ConfigError} naming the file, the element and the fix: XML syntax, the root and its
 * namespace, duplicate ids, unknown elements, every test expression, `${...}` other than
 * `${orderby}` / `${pagination}`, unknown same-namespace includes and result maps. References to
 * other namespaces are checked when a {@link MapperRegistry} links.
 */
import { ConfigError } from '@fw/core';
import { MapperStatement, StatementResolver } from './mapped-statement';
import { MapperDocument } from './mapper-types';
import { ResultMapSpec, parseResultMap } from './result-map-parser';
import { CompileContext, FragmentDefinition, compileNodes, qualifyId } from './sql-node-compiler';
import { XmlElement, childElements, readXmlTree, strayText } from './xml-tree';

/** A parsed mapper: the {@link MapperDocument} contract plus its fragments and result maps. */
export class ParsedMapperDocument implements MapperDocument {
  constructor(
    readonly namespace: string,
    readonly source: string,
    readonly statements: readonly MapperStatement[],
    /** `<sql>` fragments by qualified id. */
    readonly fragments: ReadonlyMap<string, FragmentDefinition>,
    /** Result maps by qualified id. */
    readonly resultMaps: ReadonlyMap<string, ResultMapSpec>,
  ) {}
}

const NAMESPACE = /^[A-Za-z_$][A-Za-z0-9_$-]*(\.[A-Za-z_$][A-Za-z0-9_$-]*)*$/;
const IGNORED = new Set(['cache', 'cache-ref', 'parameterMap']);
const WRITES = new Set(['insert', 'update', 'delete']);

function namespaceOf(qualifiedId: string): string {
  return qualifiedId.slice(0, qualifiedId.lastIndexOf('.'));
}

function localId(element: XmlElement, source: string, seen: Set<string>): string {
  const id = element.attributes.id?.trim();
  if (!id) throw new ConfigError(`${source}: a <${element.name}> has no id attribute; add id="..."`);
  if (id.includes('.')) throw new ConfigError(`${source}: ${element.name} '${id}' has a dot in its id; ids are local to the namespace, remove the dot`);
  if (seen.has(id)) throw new ConfigError(`${source}: ${element.name} '${id}' is defined twice; statement, sql and resultMap ids must be unique per kind in a mapper`);
  seen.add(id);
  return id;
}

function references(spec: ResultMapSpec): string[] {
  const refs = spec.extends ? [spec.extends] : [];
  for (const nested of spec.nested) refs.push(...(typeof nested.ref === 'string' ? [nested.ref] : references(nested.ref)));
  return refs;
}

function checkLocalReferences(spec: ResultMapSpec, namespace: string, resultMaps: ReadonlyMap<string, ResultMapSpec>): void {
  for (const ref of references(spec)) {
    if (namespaceOf(ref) === namespace && !resultMaps.has(ref)) {
      const name = ref.slice(namespace.length + 1);
      throw new ConfigError(`${spec.source}: resultMap '${spec.id.slice(namespace.length + 1)}' refers to unknown resultMap '${name}'; define <resultMap id="${name}"> or fix the reference`);
    }
  }
}

/** Ids of every result map reachable from `id` (stops at maps of other namespaces and cycles). */
function resultMapClosure(id: string, resultMaps: ReadonlyMap<string, ResultMapSpec>, seen = new Set<string>()): string[] {
  if (seen.has(id)) return [];
  seen.add(id);
  const spec = resultMaps.get(id);
  if (spec) for (const ref of references(spec)) resultMapClosure(ref, resultMaps, seen);
  return [...seen];
}

/**
 * Parses mapper XML.
 *
 * @param xml - the file's text.
 * @param source - where it came from (file path or `catalog:<namespace>`), used in every message.
 * @throws ConfigError for any problem that can be found in this file alone.
 * @example
 * const doc = await parseMapperXml(await readFile(file, 'utf8'), file);
 * doc.statements[0].render({ title: 'Dune' });
 */
export async function parseMapperXml(xml: string, source: string): Promise<ParsedMapperDocument> {
  const root = await readXmlTree(xml, source);
  if (root.name !== 'mapper') throw new ConfigError(`${source}: the root element is <${root.name}>; a mapper file needs <mapper namespace="...">`);
  const namespace = root.attributes.namespace?.trim();
  if (!namespace) throw new ConfigError(`${source}: <mapper> has no namespace attribute; add namespace="..." (statement ids are <namespace>.<id>)`);
  if (!NAMESPACE.test(namespace)) throw new ConfigError(`${source}: namespace '${namespace}' is not a dotted name such as "books" or "com.example.BookMapper"`);
  const stray = strayText(root);
  if (stray !== undefined) throw new ConfigError(`${source}: text "${stray.slice(0, 40)}" directly inside <mapper>; SQL belongs inside <select> or <sql>`);

  const fragments = new Map<string, FragmentDefinition>();
  const resultMaps = new Map<string, ResultMapSpec>();
  const selects: XmlElement[] = [];
  const ids = { select: new Set<string>(), sql: new Set<string>(), resultMap: new Set<string>() };
  for (const element of childElements(root)) {
    if (element.name === 'select') {
      localId(element, source, ids.select);
      selects.push(element);
    } else if (element.name === 'sql') {
      const id = localId(element, source, ids.sql);
      fragments.set(`${namespace}.${id}`, { id: `${namespace}.${id}`, namespace, source, element });
    } else if (element.name === 'resultMap') {
      const spec = parseResultMap(element, namespace, source);
      localId(element, source, ids.resultMap);
      resultMaps.set(spec.id, spec);
    } else if (WRITES.has(element.name)) {
      const id = element.attributes.id ?? '?';
      throw new ConfigError(`${source}: <${element.name} id="${id}"> is not supported; the named query service is read-only, only <select> statements are allowed`);
    } else if (!IGNORED.has(element.name)) {
      throw new ConfigError(`${source}: unknown element <${element.name}> in <mapper>; allowed: select, sql, resultMap (cache, cache-ref and parameterMap are ignored)`);
    }
  }

  for (const spec of resultMaps.values()) checkLocalReferences(spec, namespace, resultMaps);

  const fragmentLookup = (id: string): FragmentDefinition | 'defer' | undefined => (namespaceOf(id) === namespace ? fragments.get(id) : 'defer');
  for (const fragment of fragments.values()) {
    const name = fragment.id.slice(namespace.length + 1);
    const ctx: CompileContext = { namespace, source, location: `sql '${name}'`, lookup: fragmentLookup, variables: {}, includeStack: [fragment.id], validationOnly: true };
    compileNodes(fragment.element.children, ctx);
  }

  const local: StatementResolver = {
    fragment: (id) => (namespaceOf(id) === namespace ? fragments.get(id) : undefined),
    resultMap: (id) => resultMaps.get(id),
  };
  const statements = selects.map((element) => {
    const statementId = element.attributes.id.trim();
    const where = `${source}: select '${statementId}'`;
    const resultType = element.attributes.resultType?.trim() || undefined;
    const resultMapAttribute = element.attributes.resultMap?.trim() || undefined;
    if (resultType && resultMapAttribute) throw new ConfigError(`${where} has both resultType and resultMap; keep one`);
    const resultMapId = resultMapAttribute ? qualifyId(namespace, resultMapAttribute) : undefined;
    if (resultMapId && namespaceOf(resultMapId) === namespace && !resultMaps.has(resultMapId)) {
      throw new ConfigError(`${where} uses unknown resultMap '${resultMapAttribute}'; define <resultMap id="${resultMapAttribute}"> or fix the attribute`);
    }
    const ctx: CompileContext = { namespace, source, location: `select '${statementId}'`, lookup: fragmentLookup, variables: {}, includeStack: [] };
    const nodes = compileNodes(element.children, ctx);
    return new MapperStatement(
      {
        namespace,
        statementId,
        source,
        nodes,
        ...(resultType === undefined ? {} : { resultType }),
        ...(resultMapId === undefined ? {} : { resultMapId }),
      },
      local,
    );
  });
  for (const statement of statements) {
    // Link now what this file alone can link, so result map cycles surface at load too.
    const closure = statement.resultMapId ? resultMapClosure(statement.resultMapId, resultMaps) : [];
    if (statement.pendingFragmentIds.length === 0 && closure.every((id) => namespaceOf(id) === namespace)) statement.link();
  }
  return new ParsedMapperDocument(namespace, source, statements, fragments, resultMaps);
}
