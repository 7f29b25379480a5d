/**
 * Loads a MyBatis-compatible mapper XML file into a {@link ParsedMapperDocument}.
 *
 * Accepted at the top level: `select`, `sql`, `resultMap`, and — ignored, as they only tune
 * MyBatis' cache or describe parameters — `cache`, `cache-ref` and `parameterMap`. `insert`,
 * `update` and `delete` are refused: the named query service is a read API. The XML declaration,
 * a DOCTYPE, comments and CDATA sections are fine. `databaseId` follows MyBatis with the database
 * id `postgresql`: an element for another database is skipped, one for `postgresql` replaces the
 * element of the same id without a databaseId.
 *
 * {@link analyzeMapperXml} reports every problem it finds, each either of the file (bad XML, no
 * namespace, a duplicate fragment id, ...) or of one statement (what it uses does not compile,
 * or a result map it uses does not load), so the mapper check command can say which statements
 * load. {@link parseMapperXml} is the strict form startup uses: any problem is a ConfigError.
 * References to other namespaces are checked when a {@link MapperRegistry} links.
 */
import { ConfigError } from '@fw/core';
import { MapperStatement, type StatementResolver } from './mapped-statement';
import { MapperLoadError, type MapperProblemKind, combinedProblems, withContext } from './mapper-load-error';
import { DEFAULT_MAPPER_SETTINGS, type MapperSettings } from './mapper-settings';
import { type MapperDocument } from './mapper-types';
import { type ResultMapSpec, parseResultMap } from './result-map-parser';
import { type CompileContext, type FragmentDefinition, compileNodes, qualifyId } from './sql-node-compiler';
import { type StatementElementName, selectElements } from './statement-elements';
import { readStatementTuning } from './statement-tuning';
import { type XmlElement, readXmlTree, strayText } from './xml-tree';

/** A parsed mapper: the {@link MapperDocument} contract plus its fragments and result maps. */
export class ParsedMapperDocument implements MapperDocument {
  constructor(
    readonly namespace: string,
    readonly source: string,
    readonly statements: readonly MapperStatement[],
    /** `<sql>` fragments by qualified id. */
    readonly fragments: ReadonlyMap<string, FragmentDefinition>,
    /** Result maps by qualified id (a map that does not load carries its `problem`). */
    readonly resultMaps: ReadonlyMap<string, ResultMapSpec>,
  ) {}
}

/** A statement element of the file, in document order, with the problem that keeps it from loading. */
export interface DeclaredStatement {
  readonly element: StatementElementName;
  /** The local id (`?` when the element has none). */
  readonly id: string;
  /** 1-based line of the element in the file, when known. */
  readonly line?: number;
  /** Set when the statement does not load for a reason found in this file alone. */
  readonly problem?: MapperLoadError;
}

/** Everything {@link analyzeMapperXml} found in one file. */
export interface MapperAnalysis {
  readonly source: string;
  /** The statements that compiled (undefined when the file has no usable root and namespace). */
  readonly document?: ParsedMapperDocument;
  /** Problems of the file as a whole: with any of them, none of its statements loads. */
  readonly fileProblems: readonly MapperLoadError[];
  readonly statements: readonly DeclaredStatement[];
}

const IGNORED = new Set(['cache', 'cache-ref', 'parameterMap']);
const WRITES = new Set(['insert', 'update', 'delete']);

function namespaceOf(qualifiedId: string): string {
  return qualifiedId.slice(0, qualifiedId.lastIndexOf('.'));
}

function lineOf(element: XmlElement): { line?: number } {
  return element.line === undefined ? {} : { line: element.line };
}

/** A problem found at `element`, with its line. */
function problemAt(element: XmlElement, kind: MapperProblemKind, message: string): MapperLoadError {
  return new MapperLoadError(kind, message, element.line === undefined ? {} : { line: element.line });
}

function localIdProblem(element: XmlElement, source: string, seen: Set<string>): MapperLoadError | undefined {
  const id = element.attributes.id?.trim();
  if (!id) return problemAt(element, 'invalid', `${source}: a <${element.name}> has no id attribute; add id="..."`);
  if (id.includes('.'))
    return problemAt(
      element,
      'invalid',
      `${source}: ${element.name} '${id}' has a dot in its id; ids are local to the namespace, remove the dot`,
    );
  if (seen.has(id))
    return problemAt(
      element,
      'invalid',
      `${source}: ${element.name} '${id}' is defined twice; statement, sql and resultMap ids must be unique per kind in a mapper`,
    );
  seen.add(id);
  return undefined;
}

function references(spec: ResultMapSpec): string[] {
  const refs = spec.extends ? [spec.extends] : [];
  const targets = [...spec.nested.map((nested) => nested.ref), ...(spec.discriminator?.cases.map((c) => c.ref) ?? [])];
  for (const target of targets) refs.push(...(typeof target === 'string' ? [target] : references(target)));
  return refs;
}

/** Ids of every result map reachable from `id` (stops at maps of other namespaces and cycles). */
function resultMapClosure(
  id: string,
  resultMaps: ReadonlyMap<string, ResultMapSpec>,
  seen = new Set<string>(),
): string[] {
  if (seen.has(id)) return [];
  seen.add(id);
  const spec = resultMaps.get(id);
  if (spec) for (const ref of references(spec)) resultMapClosure(ref, resultMaps, seen);
  return [...seen];
}

/** The root element and namespace, or the problem that keeps the whole file from loading. */
async function readRoot(
  xml: string,
  source: string,
): Promise<{ root: XmlElement; namespace: string } | MapperLoadError> {
  let root: XmlElement;
  try {
    root = await readXmlTree(xml, source);
  } catch (error) {
    if (error instanceof MapperLoadError) return error;
    throw error;
  }
  if (root.name !== 'mapper')
    return problemAt(
      root,
      'invalid',
      `${source}: the root element is <${root.name}>; a mapper file needs <mapper namespace="...">`,
    );
  // MyBatis treats the namespace as an opaque string: anything but empty goes.
  const namespace = root.attributes.namespace?.trim();
  if (!namespace)
    return problemAt(
      root,
      'invalid',
      `${source}: <mapper> has no namespace attribute; add namespace="..." (statement ids are <namespace>.<id>)`,
    );
  return { root, namespace };
}

interface Collected {
  readonly fragments: Map<string, FragmentDefinition>;
  readonly resultMaps: Map<string, ResultMapSpec>;
  /** Selects to compile, with their position among the file's statements. */
  readonly selects: { element: XmlElement; id: string; position: number }[];
  /** Statements already known not to load (writes, duplicate ids), with their position. */
  readonly refused: { declared: DeclaredStatement; position: number }[];
  readonly fileProblems: MapperLoadError[];
  /** The mapper's `<cache>` element, if any (its settings apply to every select). */
  cache?: XmlElement;
}

/** Sorts the root's children into fragments, result maps and statements, noting file problems. */
function collect(root: XmlElement, namespace: string, source: string): Collected {
  const collected: Collected = {
    fragments: new Map(),
    resultMaps: new Map(),
    selects: [],
    refused: [],
    fileProblems: [],
  };
  const stray = strayText(root);
  if (stray !== undefined)
    collected.fileProblems.push(
      problemAt(
        root,
        'invalid',
        `${source}: text "${stray.slice(0, 40)}" directly inside <mapper>; SQL belongs inside <select> or <sql>`,
      ),
    );
  const ids = { statement: new Set<string>(), sql: new Set<string>(), resultMap: new Set<string>() };
  for (const element of selectElements(root)) {
    if (element.name === 'select' || WRITES.has(element.name)) {
      collectStatement(element, source, ids.statement, collected);
    } else if (element.name === 'sql') {
      const problem = localIdProblem(element, source, ids.sql);
      const id = `${namespace}.${element.attributes.id?.trim()}`;
      if (problem) collected.fileProblems.push(problem);
      else collected.fragments.set(id, { id, namespace, source, element });
    } else if (element.name === 'resultMap') {
      const problem = localIdProblem(element, source, ids.resultMap);
      if (problem) collected.fileProblems.push(problem);
      else {
        const spec = parseResultMap(element, namespace, source);
        collected.resultMaps.set(spec.id, spec);
      }
    } else if (element.name === 'cache') {
      collected.cache = element;
    } else if (!IGNORED.has(element.name)) {
      collected.fileProblems.push(
        problemAt(
          element,
          'invalid',
          `${source}: unknown element <${element.name}> in <mapper>; allowed: select, sql, resultMap (cache, cache-ref and parameterMap are ignored)`,
        ),
      );
    }
  }
  return collected;
}

function collectStatement(element: XmlElement, source: string, seen: Set<string>, collected: Collected): void {
  const position = collected.selects.length + collected.refused.length;
  const id = element.attributes.id?.trim() || '?';
  if (element.name !== 'select') {
    const problem = new MapperLoadError(
      'refused',
      `${source}: <${element.name} id="${id}"> is not supported; the named query service is read-only, only <select> statements are allowed`,
    );
    collected.refused.push({
      declared: { element: element.name as StatementElementName, id, problem, ...lineOf(element) },
      position,
    });
    return;
  }
  const problem = localIdProblem(element, source, seen);
  if (problem && id === '?') collected.fileProblems.push(problem);
  else if (problem)
    collected.refused.push({ declared: { element: 'select', id, problem, ...lineOf(element) }, position });
  else collected.selects.push({ element, id, position });
}

/** A `<select>` attribute MyBatis knows that changes what the statement does, and this engine cannot honour. */
function unsupportedAttribute(element: XmlElement, where: string): MapperLoadError | undefined {
  const type = element.attributes.statementType?.trim();
  if (type === 'CALLABLE')
    return new MapperLoadError(
      'unsupported',
      `${where} has statementType="CALLABLE", which is not supported; call the function in a plain select (select * from fn(#{a}))`,
    );
  if (element.attributes.resultSets !== undefined)
    return new MapperLoadError(
      'unsupported',
      `${where} has resultSets="...", which is not supported: one statement returns one result set; join the tables instead`,
    );
  const lang = element.attributes.lang?.trim();
  if (lang !== undefined && lang !== 'xml' && lang !== 'XML')
    return new MapperLoadError(
      'unsupported',
      `${where} has lang="${lang}", which is not supported: only MyBatis' XML dynamic SQL is; rewrite the statement with if/where/foreach`,
    );
  return undefined;
}

function compileSelect(
  element: XmlElement,
  id: string,
  namespace: string,
  source: string,
  collected: Collected,
  local: StatementResolver,
  settings: MapperSettings,
): MapperStatement {
  const where = `${source}: select '${id}'`;
  const unsupported = unsupportedAttribute(element, where);
  if (unsupported) throw unsupported;
  const resultType = element.attributes.resultType?.trim() || undefined;
  const resultMapAttribute = element.attributes.resultMap?.trim() || undefined;
  if (resultType && resultMapAttribute)
    throw new MapperLoadError('invalid', `${where} has both resultType and resultMap; keep one`);
  if (resultMapAttribute?.includes(','))
    throw new MapperLoadError(
      'unsupported',
      `${where} has resultMap="${resultMapAttribute}" (one per result set), which is not supported; use one resultMap`,
    );
  const resultMapId = resultMapAttribute ? qualifyId(namespace, resultMapAttribute) : undefined;
  if (resultMapId && namespaceOf(resultMapId) === namespace && !collected.resultMaps.has(resultMapId)) {
    throw new MapperLoadError(
      'invalid',
      `${where} uses unknown resultMap '${resultMapAttribute}'; define <resultMap id="${resultMapAttribute}"> or fix the attribute`,
    );
  }
  const lookup = (qualified: string): FragmentDefinition | 'defer' | undefined =>
    namespaceOf(qualified) === namespace ? collected.fragments.get(qualified) : 'defer';
  const ctx: CompileContext = {
    namespace,
    statementNamespace: namespace,
    source,
    location: `select '${id}'`,
    lookup,
    variables: {},
    includeStack: [],
    settings,
  };
  const statement = new MapperStatement(
    {
      namespace,
      statementId: id,
      source,
      nodes: compileNodes(element.children, ctx),
      tuning: readStatementTuning(element, collected.cache, where),
      ...(resultType === undefined ? {} : { resultType }),
      ...(resultMapId === undefined ? {} : { resultMapId }),
    },
    local,
  );
  // Link now what this file alone can link, so result map problems and cycles surface at load.
  const closure = resultMapId ? resultMapClosure(resultMapId, collected.resultMaps) : [];
  if (statement.pendingFragmentIds.length === 0 && closure.every((ref) => namespaceOf(ref) === namespace))
    statement.link();
  return statement;
}

/**
 * Reads mapper XML and reports, per statement, whether it loads as far as this file can tell.
 *
 * @param xml - the file's text.
 * @param source - where it came from (file path or `catalog:<namespace>`), used in every message.
 * @param settings - MyBatis settings the statements compile with (default: MyBatis' defaults).
 * @example
 * const analysis = await analyzeMapperXml(await readFile(file, 'utf8'), file);
 * analysis.statements.filter((s) => s.problem).map((s) => s.problem?.message);
 */
export async function analyzeMapperXml(
  xml: string,
  source: string,
  settings: MapperSettings = DEFAULT_MAPPER_SETTINGS,
): Promise<MapperAnalysis> {
  const root = await readRoot(xml, source);
  if (root instanceof MapperLoadError) return { source, fileProblems: [root], statements: [] };
  const { namespace } = root;
  const collected = collect(root.root, namespace, source);
  const local: StatementResolver = {
    fragment: (id) => (namespaceOf(id) === namespace ? collected.fragments.get(id) : undefined),
    resultMap: (id) => collected.resultMaps.get(id),
  };
  const compiled: MapperStatement[] = [];
  const problems = new Map<XmlElement, MapperLoadError>();
  for (const { element, id } of collected.selects) {
    try {
      compiled.push(compileSelect(element, id, namespace, source, collected, local, settings));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.set(element, error instanceof MapperLoadError ? error : withContext(error, ''));
    }
  }
  const selects = collected.selects.map(({ element, id, position }) => {
    const problem = problems.get(element);
    const declared: DeclaredStatement = { element: 'select', id, ...lineOf(element) };
    return { declared: problem ? { ...declared, problem } : declared, position };
  });
  const statements = [...collected.refused, ...selects].sort((a, b) => a.position - b.position).map((s) => s.declared);
  const document = new ParsedMapperDocument(namespace, source, compiled, collected.fragments, collected.resultMaps);
  return { source, document, fileProblems: collected.fileProblems, statements };
}

/**
 * Parses mapper XML, refusing it when anything in it does not load.
 *
 * @param xml - the file's text.
 * @param source - where it came from (file path or `catalog:<namespace>`), used in every message.
 * @param settings - MyBatis settings the statements compile with, e.g. `{ nullableOnForEach: true }`.
 * @throws ConfigError for any problem that can be found in this file alone (all of them, one line each).
 * @example
 * const doc = await parseMapperXml(await readFile(file, 'utf8'), file);
 * doc.statements[0].render({ title: 'Dune' });
 */
export async function parseMapperXml(
  xml: string,
  source: string,
  settings: MapperSettings = DEFAULT_MAPPER_SETTINGS,
): Promise<ParsedMapperDocument> {
  const analysis = await analyzeMapperXml(xml, source, settings);
  const problems = [...analysis.fileProblems, ...analysis.statements.flatMap((s) => (s.problem ? [s.problem] : []))];
  const refused = combinedProblems(problems, `problems in mapper ${source}`);
  if (refused || !analysis.document) throw refused ?? new ConfigError(`${source}: the mapper does not load`);
  return analysis.document;
}
