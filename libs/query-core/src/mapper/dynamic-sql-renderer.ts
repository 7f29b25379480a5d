/**
 * Renders a compiled {@link SqlNode} tree for one parameter map into {@link BoundSql} with
 * PostgreSQL placeholders `$1..$n`.
 *
 * - `#{path}` always becomes the next placeholder; its value goes to `values` (an array value is
 *   bound as one array parameter). Values never enter the SQL text.
 * - `${orderby}` / `${pagination}` insert `parameters.orderby` / `parameters.pagination` as text
 *   (nothing when null or absent); the framework builds both from allow-listed metadata.
 * - `foreach` item and index variables, and `bind` variables, are scoped: a `bind` inside a
 *   `foreach` lives for that iteration, elsewhere for the rest of the statement; both shadow
 *   parameters of the same name. A null collection fails the render ({@link MapperRenderError},
 *   as MyBatis raises) unless the element is nullable (`nullable="true"`, or no attribute and the
 *   mapper was parsed with the `nullableOnForEach` setting), then it renders nothing, like an
 *   empty one; a scalar is one item; an object or `Map` iterates its entries (index = key, item = value).
 * - Pieces are joined with spaces and whitespace runs outside quoted literals are collapsed to one
 *   space, so the SQL text is stable for a given set of taken branches.
 */
import { type BoundSql } from './mapper-types';
import { type ExpressionScope, evaluateExpression, isTruthy, readProperty } from './ognl-expression';
import { type SqlNode } from './sql-node';
import { DATABASE_ID } from './statement-elements';
import { FwError } from '@fw/core';
import { MapperErrorCodes } from '../errors/mapper-error-codes';

class Frame implements ExpressionScope {
  private readonly variables = new Map<string, unknown>();

  constructor(
    private readonly parameters: Readonly<Record<string, unknown>>,
    private readonly parent?: Frame,
  ) {}

  set(name: string, value: unknown): void {
    this.variables.set(name, value);
  }

  lookup(name: string): unknown {
    if (this.variables.has(name)) return this.variables.get(name);
    if (this.parent) return this.parent.lookup(name);
    if (name === '_parameter') return this.parameters;
    // MyBatis binds the configured database id as `_databaseId` (see statement-elements.ts).
    if (name === '_databaseId' && !Object.prototype.hasOwnProperty.call(this.parameters, name)) return DATABASE_ID;
    return readProperty(this.parameters, name);
  }

  child(): Frame {
    return new Frame(this.parameters, this);
  }
}

interface RenderState {
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly values: unknown[];
}

const WORDISH = /[A-Za-z0-9_$'"]/;

/** Concatenates SQL pieces, adding a space only where two words would otherwise merge. */
function glue(pieces: readonly string[]): string {
  let out = '';
  for (const piece of pieces) {
    if (piece === '') continue;
    if (out !== '' && WORDISH.test(out[out.length - 1]) && WORDISH.test(piece[0])) out += ' ';
    out += piece;
  }
  return out;
}

function startsWithToken(body: string, token: string): boolean {
  if (body.length < token.length || body.slice(0, token.length).toUpperCase() !== token.toUpperCase()) return false;
  return !/\w$/.test(token) || !/\w/.test(body.charAt(token.length));
}

function endsWithToken(body: string, token: string): boolean {
  const at = body.length - token.length;
  if (at < 0 || body.slice(at).toUpperCase() !== token.toUpperCase()) return false;
  return !/^\w/.test(token) || !/\w/.test(body.charAt(at - 1));
}

/**
 * MyBatis `<trim>`: strips the first matching prefix and suffix override (case-insensitive, whole
 * words) and wraps non-empty content in prefix and suffix.
 */
export function applyTrim(content: string, node: Extract<SqlNode, { kind: 'trim' }>): string {
  let body = content.trim();
  const prefixOverride = node.prefixOverrides.find((token) => startsWithToken(body, token));
  if (prefixOverride) body = body.slice(prefixOverride.length).trim();
  const suffixOverride = node.suffixOverrides.find((token) => endsWithToken(body, token));
  if (suffixOverride) body = body.slice(0, body.length - suffixOverride.length).trim();
  if (body === '') return '';
  return [node.prefix, body, node.suffix].filter((s) => s !== '').join(' ');
}

function substitutionText(value: unknown, name: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value);
  throw new TypeError(`parameter '${name}' must be SQL text built by the framework, got ${typeof value}`);
}

/**
 * A request that cannot be rendered: the statement's SQL would not mean what its author wrote
 * (a `<foreach>` over a null collection). The provider reports it as a failed query; the
 * message names the mapper file and statement, never parameter values.
 */
export class MapperRenderError extends FwError {
  constructor(message: string) {
    super({ code: 500, subErrorCode: MapperErrorCodes.render, description: message, expose: false });
    this.name = 'MapperRenderError';
  }
}

function entriesOf(collection: unknown): [unknown, unknown][] {
  if (collection === null || collection === undefined) return [];
  if (Array.isArray(collection)) return collection.map((item, i) => [i, item]);
  if (collection instanceof Map) return [...collection.entries()];
  if (collection instanceof Set) return [...collection].map((item, i) => [i, item]);
  if (typeof collection === 'object' && !(collection instanceof Date) && !ArrayBuffer.isView(collection)) {
    return Object.entries(collection as Record<string, unknown>);
  }
  return [[0, collection]];
}

function renderNodes(nodes: readonly SqlNode[], frame: Frame, state: RenderState): string {
  const pieces: string[] = [];
  for (const node of nodes) {
    const text = renderNode(node, frame, state);
    if (text !== '') pieces.push(text);
  }
  return pieces.join(' ');
}

function renderNode(node: SqlNode, frame: Frame, state: RenderState): string {
  switch (node.kind) {
    case 'text':
      return node.parts
        .map((part) => {
          if (part.kind === 'sql') return part.text;
          if (part.kind === 'substitution') return substitutionText(state.parameters[part.name], part.name);
          state.values.push(evaluateExpression(part.path, frame) ?? null);
          return `$${state.values.length}`;
        })
        .join('');
    case 'if':
      return isTruthy(evaluateExpression(node.test, frame)) ? renderNodes(node.children, frame, state) : '';
    case 'trim':
      return applyTrim(renderNodes(node.children, frame, state), node);
    case 'choose': {
      const chosen = node.whens.find((when) => isTruthy(evaluateExpression(when.test, frame)));
      if (chosen) return renderNodes(chosen.children, frame, state);
      return node.otherwise ? renderNodes(node.otherwise, frame, state) : '';
    }
    case 'foreach':
      return renderForeach(node, frame, state);
    case 'bind':
      frame.set(node.name, evaluateExpression(node.value, frame));
      return '';
    case 'include':
      throw new Error(`internal: include '${node.refid}' was not linked before rendering`);
  }
}

function renderForeach(node: Extract<SqlNode, { kind: 'foreach' }>, frame: Frame, state: RenderState): string {
  const collection = evaluateExpression(node.collection, frame);
  if ((collection === null || collection === undefined) && !node.nullable) {
    throw new MapperRenderError(
      `${node.location}: <foreach collection="${node.collectionText}"> evaluated to a null value; pass a list (an empty list renders nothing) or add nullable="true" (or set query.mapperSettings.nullableOnForEach) to render nothing for null`,
    );
  }
  const items: string[] = [];
  for (const [index, item] of entriesOf(collection)) {
    const iteration = frame.child();
    if (node.item) iteration.set(node.item, item);
    if (node.index) iteration.set(node.index, index);
    const text = renderNodes(node.children, iteration, state).trim();
    if (text !== '') items.push(text);
  }
  if (items.length === 0) return '';
  const separator = node.separator.trim();
  const pieces: string[] = [node.open.trim()];
  items.forEach((item, i) => pieces.push(...(i > 0 && separator !== '' ? [separator, item] : [item])));
  pieces.push(node.close.trim());
  return glue(pieces);
}

/** Whether a UTF-16 code unit is whitespace in the sense of the RegExp class `\s`. */
function isWhitespace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const SINGLE_QUOTE = 39;
const DOUBLE_QUOTE = 34;

/**
 * Collapses whitespace runs outside quoted literals to one space and drops them at both ends;
 * a literal (to its closing quote, or to the end when unterminated) is copied as it is, and `''`
 * inside one reads as two adjacent literals, which keeps it intact too. It runs on every rendered
 * statement, so it copies whole runs of ordinary characters instead of one character at a time.
 */
export function collapseWhitespace(sql: string): string {
  const length = sql.length;
  let out = '';
  let pendingSpace = false;
  let i = 0;
  while (i < length) {
    const c = sql.charCodeAt(i);
    if (isWhitespace(c)) {
      pendingSpace = out !== '';
      i++;
      continue;
    }
    let end: number;
    if (c === SINGLE_QUOTE || c === DOUBLE_QUOTE) {
      const close = sql.indexOf(sql[i], i + 1);
      end = close === -1 ? length : close + 1;
    } else {
      end = i + 1;
      while (end < length) {
        const next = sql.charCodeAt(end);
        if (isWhitespace(next) || next === SINGLE_QUOTE || next === DOUBLE_QUOTE) break;
        end++;
      }
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += sql.slice(i, end);
    i = end;
  }
  return out;
}

/**
 * Renders `nodes` (with every include already expanded) for one flat parameter map.
 *
 * @example
 * renderSql(nodes, { title: 'Dune', orderby: 'order by title' });
 * // { sql: 'select * from book WHERE title = $1 order by title', values: ['Dune'] }
 */
export function renderSql(nodes: readonly SqlNode[], parameters: Readonly<Record<string, unknown>>): BoundSql {
  const state: RenderState = { parameters, values: [] };
  const sql = collapseWhitespace(renderNodes(nodes, new Frame(parameters), state));
  return { sql, values: state.values };
}
