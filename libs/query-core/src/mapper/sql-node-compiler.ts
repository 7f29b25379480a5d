/**
 * Compiles the XML of a `<select>` (or an included `<sql>` fragment) into {@link SqlNode}s, parsing
 * every `test`, `collection` and `bind value` expression and every `#{...}` / `${...}` token, so that
 * all mistakes surface as a {@link ConfigError} when the mapper loads.
 *
 * Includes: `<include refid="frag">` resolves `frag` in the including element's namespace;
 * `refid="other.ns.frag"` (a dot) is fully qualified. Fragments of the same document are expanded
 * at load; fragments of another namespace become `include` nodes that the registry expands when it
 * links. `<property name="x" value="..."/>` inside an include replaces `${x}` in the fragment's text
 * and attributes before the fragment is compiled (nested includes inherit the properties).
 */
import { ConfigError } from '@fw/core';
import { Expression, ExpressionSyntaxError, parseExpression } from './ognl-parser';
import { SqlNode, SqlTextError, splitSqlText } from './sql-node';
import { XmlElement, XmlNode, childElements, strayText } from './xml-tree';

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
  readonly namespace: string;
  readonly source: string;
  /** E.g. `select 'findBooks'` or `sql 'columns' (included by select 'findBooks')`. */
  readonly location: string;
  readonly lookup: FragmentLookup;
  /** Include properties in scope (`${name}` → value). */
  readonly variables: Readonly<Record<string, string>>;
  /** Qualified ids of the fragments being expanded, to refuse include cycles. */
  readonly includeStack: readonly string[];
  /**
   * Checks a fragment on its own: `${name}` placeholders that an include could fill are replaced
   * by `name` instead of being refused.
   */
  readonly validationOnly?: boolean;
}

/** `frag` → `<namespace>.frag`; an id with a dot is already qualified. */
export function qualifyId(namespace: string, id: string): string {
  return id.includes('.') ? id : `${namespace}.${id}`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PLACEHOLDER = /\$\{\s*([^}]*?)\s*\}/g;
const FRAMEWORK = new Set(['orderby', 'pagination']);

function fail(ctx: CompileContext, detail: string): never {
  throw new ConfigError(`${ctx.source}: ${ctx.location} ${detail}`);
}

function substitute(text: string, ctx: CompileContext): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (Object.prototype.hasOwnProperty.call(ctx.variables, name)) return ctx.variables[name];
    if (ctx.validationOnly && !FRAMEWORK.has(name)) return name;
    return whole;
  });
}

function attribute(element: XmlElement, name: string, ctx: CompileContext): string | undefined {
  const value = element.attributes[name];
  return value === undefined ? undefined : substitute(value, ctx);
}

function requiredAttribute(element: XmlElement, name: string, ctx: CompileContext): string {
  const value = attribute(element, name, ctx);
  if (value === undefined || value.trim() === '') fail(ctx, `has <${element.name}> without the required '${name}' attribute; add ${name}="..."`);
  return value.trim();
}

function expression(element: XmlElement, name: string, ctx: CompileContext): Expression {
  const text = requiredAttribute(element, name, ctx);
  try {
    return parseExpression(text);
  } catch (error) {
    const detail = error instanceof ExpressionSyntaxError ? error.message : String(error);
    return fail(ctx, `has <${element.name} ${name}="${text}"> that does not parse: ${detail}; fix the expression`);
  }
}

/** Static text placed into SQL by an attribute (prefix, open, ...): no tokens allowed there. */
function sqlAttribute(element: XmlElement, name: string, ctx: CompileContext): string {
  const value = attribute(element, name, ctx) ?? '';
  if (/[#$]\{/.test(value)) fail(ctx, `has <${element.name} ${name}="${value}">; parameters and substitutions are not allowed in '${name}', put them in the element's text`);
  return value;
}

function identifierAttribute(element: XmlElement, name: string, ctx: CompileContext, required: boolean): string | undefined {
  const value = required ? requiredAttribute(element, name, ctx) : attribute(element, name, ctx)?.trim();
  if (value === undefined || value === '') return undefined;
  if (!IDENTIFIER.test(value)) fail(ctx, `has <${element.name} ${name}="${value}">; '${name}' must be a simple name such as "item"`);
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
  if (stray !== undefined) fail(ctx, `has text "${stray.slice(0, 40)}" directly inside <choose>; put it inside <when> or <otherwise>`);
  const whens: { test: Expression; children: SqlNode[] }[] = [];
  let otherwise: SqlNode[] | undefined;
  for (const child of childElements(element)) {
    if (child.name === 'when' && otherwise === undefined) whens.push({ test: expression(child, 'test', ctx), children: compileNodes(child.children, ctx) });
    else if (child.name === 'otherwise' && otherwise === undefined) otherwise = compileNodes(child.children, ctx);
    else fail(ctx, `has <${child.name}> inside <choose> where only <when test="..."> elements and one final <otherwise> are allowed`);
  }
  if (whens.length === 0) fail(ctx, 'has a <choose> without any <when test="..."> element; add one');
  return otherwise === undefined ? { kind: 'choose', whens } : { kind: 'choose', whens, otherwise };
}

function compileInclude(element: XmlElement, ctx: CompileContext): SqlNode[] {
  const refid = requiredAttribute(element, 'refid', ctx);
  const properties: Record<string, string> = { ...ctx.variables };
  const stray = strayText(element);
  if (stray !== undefined) fail(ctx, `has text "${stray.slice(0, 40)}" inside <include refid="${refid}">; only <property name value> elements belong there`);
  for (const child of childElements(element)) {
    if (child.name !== 'property') fail(ctx, `has <${child.name}> inside <include refid="${refid}">; only <property name="..." value="..."/> is allowed`);
    properties[requiredAttribute(child, 'name', ctx)] = attribute(child, 'value', ctx) ?? '';
  }
  const id = qualifyId(ctx.namespace, refid);
  if (ctx.includeStack.includes(id)) fail(ctx, `includes '${id}' which includes itself (${[...ctx.includeStack, id].join(' -> ')}); remove the cycle`);
  const found = ctx.lookup(id);
  if (found === 'defer') return [{ kind: 'include', refid: id, properties, source: ctx.source, location: ctx.location }];
  if (!found) fail(ctx, `includes unknown sql fragment '${refid}'; define <sql id="${refid}"> in namespace '${id.slice(0, id.lastIndexOf('.'))}' or fix the refid`);
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

function compileElement(element: XmlElement, ctx: CompileContext): SqlNode[] {
  const children = (): SqlNode[] => compileNodes(element.children, ctx);
  switch (element.name) {
    case 'if':
      return [{ kind: 'if', test: expression(element, 'test', ctx), children: children() }];
    case 'where':
      return [{ kind: 'trim', prefix: 'WHERE', suffix: '', prefixOverrides: ['AND', 'OR'], suffixOverrides: [], children: children() }];
    case 'set':
      return [{ kind: 'trim', prefix: 'SET', suffix: '', prefixOverrides: [','], suffixOverrides: [','], children: children() }];
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
    case 'foreach': {
      const item = identifierAttribute(element, 'item', ctx, false);
      const index = identifierAttribute(element, 'index', ctx, false);
      return [
        {
          kind: 'foreach',
          collection: expression(element, 'collection', ctx),
          ...(item === undefined ? {} : { item }),
          ...(index === undefined ? {} : { index }),
          open: sqlAttribute(element, 'open', ctx),
          close: sqlAttribute(element, 'close', ctx),
          separator: sqlAttribute(element, 'separator', ctx),
          children: children(),
        },
      ];
    }
    case 'bind':
      return [{ kind: 'bind', name: identifierAttribute(element, 'name', ctx, true) ?? '', value: expression(element, 'value', ctx) }];
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
      if (error instanceof SqlTextError) fail(ctx, error.message);
      throw error;
    }
  }
  return result;
}

/**
 * Replaces every deferred `include` node by the compiled fragment, found through `lookup`
 * (which should no longer defer). Used by the registry when it links.
 */
export function expandIncludes(nodes: readonly SqlNode[], lookup: FragmentLookup): SqlNode[] {
  return nodes.flatMap((node): SqlNode[] => {
    switch (node.kind) {
      case 'include': {
        const found = lookup(node.refid);
        if (!found || found === 'defer') {
          throw new ConfigError(
            `${node.source}: ${node.location} includes sql fragment '${node.refid}', which no loaded mapper defines; load the mapper with that namespace or fix the refid`,
          );
        }
        const ctx: CompileContext = {
          namespace: found.namespace,
          source: found.source,
          location: '',
          lookup,
          variables: node.properties,
          includeStack: [],
        };
        return compileFragment(found, ctx, node.location);
      }
      case 'if':
      case 'trim':
      case 'foreach':
        return [{ ...node, children: expandIncludes(node.children, lookup) }];
      case 'choose':
        return [
          {
            ...node,
            whens: node.whens.map((when) => ({ ...when, children: expandIncludes(when.children, lookup) })),
            ...(node.otherwise === undefined ? {} : { otherwise: expandIncludes(node.otherwise, lookup) }),
          },
        ];
      default:
        return [node];
    }
  });
}
