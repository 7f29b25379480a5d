/**
 * Compiles the XML of a `<select>` (or an included `<sql>` fragment) into {@link SqlNode}s, parsing
 * every `test`, `collection` and `bind value` expression and every `#{...}` / `${...}` token, so that
 * all mistakes surface as a {@link ConfigError} when the mapper loads.
 *
 * Includes (MyBatis' XMLIncludeTransformer rules): `<include refid="frag">` resolves `frag` in the
 * namespace of the statement being compiled, also inside a fragment of another namespace (then in
 * the fragment's own namespace as a fallback); `refid="other.ns.frag"` (a dot) is fully qualified.
 * `<property name="x" value="..."/>` inside an include fills `${x}` in the fragment's text, its
 * attributes and the `refid` of includes inside it, at load; nested includes inherit the
 * properties, and a property given twice in one include is refused. A fragment is compiled each
 * time a statement includes it, with that include's properties, never on its own. Fragments of
 * the same document are expanded at load; fragments of another namespace become `include` nodes
 * that the registry expands when it links.
 */
import { MapperLoadError, type MapperProblemKind } from './mapper-load-error';
import { type MapperSettings } from './mapper-settings';
import { type Expression, ExpressionSyntaxError, parseExpression } from './ognl-parser';
import { type SqlNode, SqlTextError, splitSqlText } from './sql-node';
import { type XmlElement, type XmlNode, childElements, strayText } from './xml-tree';

/** A `<sql>` fragment as stored by a parsed document. */
export interface FragmentDefinition {
  /** `<namespace>.<id>`. */
  readonly id: string;
  readonly namespace: string;
  readonly source: string;
  readonly element: XmlElement;
}

/** Finds a fragment by qualified id; `'defer'` leaves the include for the registry to expand. */
export type FragmentLookup = (qualifiedId: string) => FragmentDefinition | 'defer' | undefined;

/** Where compilation happens, for resolution and error messages. */
export interface CompileContext {
  /** Namespace of the element being compiled (a fragment's own namespace inside a fragment). */
  readonly namespace: string;
  /**
   * Namespace of the statement being compiled. MyBatis resolves an unqualified `refid` there,
   * even inside a fragment of another namespace; the fragment's own namespace is the fallback.
   */
  readonly statementNamespace: string;
  readonly source: string;
  /** E.g. `select 'findBooks'` or `sql 'columns' (included by select 'findBooks')`. */
  readonly location: string;
  readonly lookup: FragmentLookup;
  /** Include properties in scope (`${name}` → value). */
  readonly variables: Readonly<Record<string, string>>;
  /** Qualified ids of the fragments being expanded, to refuse include cycles. */
  readonly includeStack: readonly string[];
  /** The MyBatis settings of the statement's mapper (defaults such as `foreach@nullable`). */
  readonly settings: MapperSettings;
}

/** `frag` → `<namespace>.frag`; an id with a dot is already qualified. */
export function qualifyId(namespace: string, id: string): string {
  return id.includes('.') ? id : `${namespace}.${id}`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PLACEHOLDER = /\$\{\s*([^}]*?)\s*\}/g;
const FRAMEWORK = new Set(['orderby', 'pagination']);

function fail(ctx: CompileContext, detail: string, kind: MapperProblemKind = 'invalid'): never {
  throw new MapperLoadError(kind, `${ctx.source}: ${ctx.location} ${detail}`);
}

/** Fills `${name}` from the include properties in scope (load-time text, as MyBatis does). */
function substitute(text: string, ctx: CompileContext): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(ctx.variables, name) ? ctx.variables[name] : whole,
  );
}

/** The first `${name}` left in `text` that is not a framework substitution, if any. */
function unfilledPlaceholder(text: string): string | undefined {
  for (const match of text.matchAll(PLACEHOLDER)) if (!FRAMEWORK.has(match[1])) return match[0];
  return undefined;
}

function attribute(element: XmlElement, name: string, ctx: CompileContext): string | undefined {
  const written = element.attributes[name];
  if (written === undefined) return undefined;
  const value = substitute(written, ctx);
  const unfilled = unfilledPlaceholder(value);
  if (unfilled !== undefined) {
    fail(
      ctx,
      `has <${element.name} ${name}="${written}">: no include property fills ${unfilled}, and runtime \${...} is refused; pass it with <property name="${unfilled.slice(2, -1).trim()}" value="..."/> on the <include>, or use #{...} for values`,
      'refused',
    );
  }
  return value;
}

function requiredAttribute(element: XmlElement, name: string, ctx: CompileContext): string {
  const value = attribute(element, name, ctx);
  if (value === undefined || value.trim() === '')
    fail(ctx, `has <${element.name}> without the required '${name}' attribute; add ${name}="..."`);
  return value.trim();
}

function booleanAttribute(element: XmlElement, name: string, ctx: CompileContext): boolean | undefined {
  const value = attribute(element, name, ctx)?.trim();
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') fail(ctx, `has <${element.name} ${name}="${value}">; use true or false`);
  return value === 'true';
}

function expression(element: XmlElement, name: string, ctx: CompileContext): Expression {
  const text = requiredAttribute(element, name, ctx);
  try {
    return parseExpression(text);
  } catch (error) {
    const detail = error instanceof ExpressionSyntaxError ? error.message : String(error);
    // Anything outside the OGNL subset this engine evaluates (static calls, projections, ...)
    // fails here too, so a parse failure is reported as unsupported rather than as a mistake.
    return fail(
      ctx,
      `has <${element.name} ${name}="${text}"> that does not parse: ${detail}; fix the expression`,
      'unsupported',
    );
  }
}

/** Static text placed into SQL by an attribute (prefix, open, ...): no tokens allowed there. */
function sqlAttribute(element: XmlElement, name: string, ctx: CompileContext): string {
  const value = attribute(element, name, ctx) ?? '';
  if (/[#$]\{/.test(value))
    fail(
      ctx,
      `has <${element.name} ${name}="${value}">; parameters and substitutions are not allowed in '${name}', put them in the element's text`,
    );
  return value;
}

function identifierAttribute(
  element: XmlElement,
  name: string,
  ctx: CompileContext,
  required: boolean,
): string | undefined {
  const value = required ? requiredAttribute(element, name, ctx) : attribute(element, name, ctx)?.trim();
  if (value === undefined || value === '') return undefined;
  if (!IDENTIFIER.test(value))
    fail(ctx, `has <${element.name} ${name}="${value}">; '${name}' must be a simple name such as "item"`);
  return value;
}

function overrides(element: XmlElement, name: string, ctx: CompileContext): string[] {
  return sqlAttribute(element, name, ctx)
    .split('|')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function compileChoose(element: XmlElement, ctx: CompileContext): SqlNode {
  const stray = strayText(element);
  if (stray !== undefined)
    fail(ctx, `has text "${stray.slice(0, 40)}" directly inside <choose>; put it inside <when> or <otherwise>`);
  const whens: { test: Expression; children: SqlNode[] }[] = [];
  let otherwise: SqlNode[] | undefined;
  for (const child of childElements(element)) {
    if (child.name === 'when' && otherwise === undefined)
      whens.push({ test: expression(child, 'test', ctx), children: compileNodes(child.children, ctx) });
    else if (child.name === 'otherwise' && otherwise === undefined) otherwise = compileNodes(child.children, ctx);
    else
      fail(
        ctx,
        `has <${child.name}> inside <choose> where only <when test="..."> elements and one final <otherwise> are allowed`,
      );
  }
  if (whens.length === 0) fail(ctx, 'has a <choose> without any <when test="..."> element; add one');
  return otherwise === undefined ? { kind: 'choose', whens } : { kind: 'choose', whens, otherwise };
}

/**
 * The include's `refid` with the properties in scope filled in (MyBatis resolves it at load, so
 * `<include refid="${target}"/>` inside a fragment follows the property its includer passes).
 */
function includeRefid(element: XmlElement, ctx: CompileContext): string {
  const written = element.attributes.refid?.trim() ?? '';
  if (written === '') fail(ctx, 'has <include> without the required \'refid\' attribute; add refid="..."');
  const refid = substitute(written, ctx).trim();
  const unfilled = /\$\{[^}]*\}/.exec(refid)?.[0];
  if (unfilled !== undefined) {
    fail(
      ctx,
      `has <include refid="${written}">, and no include property fills ${unfilled}; pass it with <property name="${unfilled.slice(2, -1).trim()}" value="..."/> where this fragment is included`,
    );
  }
  return refid;
}

/** The `<property>` children of an include, each filled from the properties in scope; a name given twice is refused, as MyBatis does. */
function includeProperties(element: XmlElement, refid: string, ctx: CompileContext): Record<string, string> {
  const stray = strayText(element);
  if (stray !== undefined)
    fail(
      ctx,
      `has text "${stray.slice(0, 40)}" inside <include refid="${refid}">; only <property name value> elements belong there`,
    );
  const own: Record<string, string> = {};
  for (const child of childElements(element)) {
    if (child.name !== 'property')
      fail(
        ctx,
        `has <${child.name}> inside <include refid="${refid}">; only <property name="..." value="..."/> is allowed`,
      );
    const name = requiredAttribute(child, 'name', ctx);
    if (Object.prototype.hasOwnProperty.call(own, name)) {
      fail(
        ctx,
        `has <include refid="${refid}"> with <property name="${name}"> twice; MyBatis refuses a property defined twice in one include, keep one`,
      );
    }
    own[name] = attribute(child, 'value', ctx) ?? '';
  }
  return { ...ctx.variables, ...own };
}

/**
 * Finds the fragment an include names. A qualified refid is looked up as written; an unqualified
 * one in the statement's namespace first (MyBatis: the including mapper's, even inside a fragment
 * of another namespace), then in the namespace of the fragment it is written in (which MyBatis
 * would refuse; it lets a shared fragment include its own helpers).
 */
function resolveInclude(refid: string, ctx: CompileContext): FragmentDefinition | { readonly deferred: string } {
  const candidates = refid.includes('.')
    ? [refid]
    : [...new Set([`${ctx.statementNamespace}.${refid}`, `${ctx.namespace}.${refid}`])];
  for (const id of candidates) {
    const found = ctx.lookup(id);
    if (found === 'defer') return { deferred: id };
    if (found) return found;
  }
  const namespaces = candidates.map((id) => `'${id.slice(0, id.lastIndexOf('.'))}'`).join(' or ');
  const local = refid.includes('.') ? refid.slice(refid.lastIndexOf('.') + 1) : refid;
  return fail(
    ctx,
    `includes unknown sql fragment '${refid}'; define <sql id="${local}"> in namespace ${namespaces} or fix the refid`,
  );
}

function compileInclude(element: XmlElement, ctx: CompileContext): SqlNode[] {
  const refid = includeRefid(element, ctx);
  const properties = includeProperties(element, refid, ctx);
  const found = resolveInclude(refid, ctx);
  const id = 'deferred' in found ? found.deferred : found.id;
  if (ctx.includeStack.includes(id))
    fail(ctx, `includes '${id}' which includes itself (${[...ctx.includeStack, id].join(' -> ')}); remove the cycle`);
  if ('deferred' in found) {
    return [
      {
        kind: 'include',
        refid: id,
        properties,
        source: ctx.source,
        location: ctx.location,
        includeStack: ctx.includeStack,
        settings: ctx.settings,
      },
    ];
  }
  return compileFragment(found, { ...ctx, variables: properties }, ctx.location);
}

/** Compiles a fragment as included from `includedBy` with the given context's lookup and variables. */
export function compileFragment(fragment: FragmentDefinition, ctx: CompileContext, includedBy: string): SqlNode[] {
  return compileNodes(fragment.element.children, {
    ...ctx,
    namespace: fragment.namespace,
    source: fragment.source,
    location: `sql '${fragment.id.slice(fragment.namespace.length + 1)}' (included by ${includedBy})`,
    includeStack: [...ctx.includeStack, fragment.id],
  });
}

/**
 * `<foreach>`. Whether a null collection fails the request or renders nothing is fixed here:
 * MyBatis raises "evaluated to a null value" unless the element says `nullable="true"` or, when it
 * says nothing, the `nullableOnForEach` setting is on. An `id in (...)` that silently disappears
 * would widen the result, so without either the default is to fail.
 */
function compileForeach(element: XmlElement, ctx: CompileContext): SqlNode {
  const item = identifierAttribute(element, 'item', ctx, false);
  const index = identifierAttribute(element, 'index', ctx, false);
  return {
    kind: 'foreach',
    collection: expression(element, 'collection', ctx),
    collectionText: requiredAttribute(element, 'collection', ctx),
    nullable: booleanAttribute(element, 'nullable', ctx) ?? ctx.settings.nullableOnForEach ?? false,
    location: `${ctx.source}: ${ctx.location}`,
    ...(item === undefined ? {} : { item }),
    ...(index === undefined ? {} : { index }),
    open: sqlAttribute(element, 'open', ctx),
    close: sqlAttribute(element, 'close', ctx),
    separator: sqlAttribute(element, 'separator', ctx),
    children: compileNodes(element.children, ctx),
  };
}

function compileElement(element: XmlElement, ctx: CompileContext): SqlNode[] {
  const children = (): SqlNode[] => compileNodes(element.children, ctx);
  switch (element.name) {
    case 'if':
      return [{ kind: 'if', test: expression(element, 'test', ctx), children: children() }];
    case 'where':
      return [
        {
          kind: 'trim',
          prefix: 'WHERE',
          suffix: '',
          prefixOverrides: ['AND', 'OR'],
          suffixOverrides: [],
          children: children(),
        },
      ];
    case 'set':
      return [
        {
          kind: 'trim',
          prefix: 'SET',
          suffix: '',
          prefixOverrides: [','],
          suffixOverrides: [','],
          children: children(),
        },
      ];
    case 'trim':
      return [
        {
          kind: 'trim',
          prefix: sqlAttribute(element, 'prefix', ctx).trim(),
          suffix: sqlAttribute(element, 'suffix', ctx).trim(),
          prefixOverrides: overrides(element, 'prefixOverrides', ctx),
          suffixOverrides: overrides(element, 'suffixOverrides', ctx),
          children: children(),
        },
      ];
    case 'choose':
      return [compileChoose(element, ctx)];
    case 'foreach':
      return [compileForeach(element, ctx)];
    case 'bind':
      return [
        {
          kind: 'bind',
          name: identifierAttribute(element, 'name', ctx, true) ?? '',
          value: expression(element, 'value', ctx),
        },
      ];
    case 'include':
      return compileInclude(element, ctx);
    case 'when':
    case 'otherwise':
      return fail(ctx, `has <${element.name}> outside <choose>; wrap it in <choose>`);
    default:
      return fail(
        ctx,
        `has unknown element <${element.name}>; allowed inside statements: if, where, trim, set, choose/when/otherwise, foreach, bind, include`,
      );
  }
}

/** Compiles a list of XML children (text and elements) into SQL nodes. */
export function compileNodes(nodes: readonly XmlNode[], ctx: CompileContext): SqlNode[] {
  const result: SqlNode[] = [];
  for (const node of nodes) {
    if (node.kind === 'element') {
      result.push(...compileElement(node, ctx));
      continue;
    }
    if (node.text.trim() === '') continue;
    try {
      result.push({ kind: 'text', parts: splitSqlText(substitute(node.text, ctx)) });
    } catch (error) {
      if (error instanceof SqlTextError) fail(ctx, error.message, error.kind);
      throw error;
    }
  }
  return result;
}

/**
 * Replaces every deferred `include` node by the compiled fragment, found through `lookup`
 * (which should no longer defer). Used by the registry when it links; `statementNamespace` is
 * the namespace of the statement being linked, where unqualified refids inside the fragment resolve.
 */
export function expandIncludes(
  nodes: readonly SqlNode[],
  lookup: FragmentLookup,
  statementNamespace: string,
): SqlNode[] {
  const expand = (list: readonly SqlNode[]): SqlNode[] => expandIncludes(list, lookup, statementNamespace);
  return nodes.flatMap((node): SqlNode[] => {
    switch (node.kind) {
      case 'include': {
        const found = lookup(node.refid);
        if (!found || found === 'defer') {
          throw new MapperLoadError(
            'invalid',
            `${node.source}: ${node.location} includes sql fragment '${node.refid}', which no loaded mapper defines; load the mapper with that namespace or fix the refid`,
          );
        }
        const ctx: CompileContext = {
          namespace: found.namespace,
          statementNamespace,
          source: found.source,
          location: '',
          lookup,
          variables: node.properties,
          includeStack: node.includeStack,
          settings: node.settings,
        };
        return compileFragment(found, ctx, node.location);
      }
      case 'if':
      case 'trim':
      case 'foreach':
        return [{ ...node, children: expand(node.children) }];
      case 'choose':
        return [
          {
            ...node,
            whens: node.whens.map((when) => ({ ...when, children: expand(when.children) })),
            ...(node.otherwise === undefined ? {} : { otherwise: expand(node.otherwise) }),
          },
        ];
      default:
        return [node];
    }
  });
}
