/**
 * The compiled form of a statement's dynamic SQL: a tree of {@link SqlNode}s built once when the
 * mapper loads (see `sql-node-compiler.ts`) and rendered per request (see
 * `dynamic-sql-renderer.ts`). Text is pre-split into SQL pieces, `#{...}` parameters and the two
 * framework substitutions, so rendering never re-parses text.
 */
import { type MapperProblemKind } from './mapper-load-error';
import { type MapperSettings } from './mapper-settings';
import { FRAMEWORK_SUBSTITUTIONS, type FrameworkSubstitution } from './mapper-types';
import { type Expression, ExpressionSyntaxError, isPropertyPath, parseExpression } from './ognl-parser';
import { FwError } from '@fw/core';
import { MapperErrorCodes } from '../errors/mapper-error-codes';

/** A piece of static text: SQL, a bind parameter or a framework substitution. */
export type TextPart =
  | { readonly kind: 'sql'; readonly text: string }
  | { readonly kind: 'parameter'; readonly path: Expression; readonly raw: string }
  | { readonly kind: 'substitution'; readonly name: FrameworkSubstitution };

/** One node of the dynamic SQL tree. */
export type SqlNode =
  | { readonly kind: 'text'; readonly parts: readonly TextPart[] }
  | { readonly kind: 'if'; readonly test: Expression; readonly children: readonly SqlNode[] }
  | {
      readonly kind: 'trim';
      readonly prefix: string;
      readonly suffix: string;
      readonly prefixOverrides: readonly string[];
      readonly suffixOverrides: readonly string[];
      readonly children: readonly SqlNode[];
    }
  | {
      readonly kind: 'choose';
      readonly whens: readonly { readonly test: Expression; readonly children: readonly SqlNode[] }[];
      readonly otherwise?: readonly SqlNode[];
    }
  | {
      readonly kind: 'foreach';
      readonly collection: Expression;
      /** The `collection` attribute as written, for the null-collection error. */
      readonly collectionText: string;
      /** `nullable="true"` (or, without the attribute, the `nullableOnForEach` setting): a null collection renders nothing instead of failing the request. */
      readonly nullable: boolean;
      /** Where the element is (`<file>: select 'x'`), for the null-collection error. */
      readonly location: string;
      readonly item?: string;
      readonly index?: string;
      readonly open: string;
      readonly close: string;
      readonly separator: string;
      readonly children: readonly SqlNode[];
    }
  | { readonly kind: 'bind'; readonly name: string; readonly value: Expression }
  | {
      /** An include of another namespace's fragment, expanded when the registry links. */
      readonly kind: 'include';
      readonly refid: string;
      readonly properties: Readonly<Record<string, string>>;
      /** File of the including element, for messages. */
      readonly source: string;
      /** The including element, e.g. `select 'findBooks'`, for messages. */
      readonly location: string;
      /** Fragments being expanded around the include, to refuse cycles that cross namespaces. */
      readonly includeStack: readonly string[];
      /** The including mapper's settings: the fragment compiles with them, as if written in place. */
      readonly settings: MapperSettings;
    };

/** Problem found while splitting text; the caller adds file and statement to the message. */
export class SqlTextError extends FwError {
  constructor(
    message: string,
    readonly kind: MapperProblemKind = 'invalid',
  ) {
    super({ code: 500, subErrorCode: MapperErrorCodes.sqlText, description: message, expose: false });
    this.name = 'SqlTextError';
  }
}

/**
 * Removes SQL comments (`-- ...` to the end of the line, `/* ... *\/` except `/*+ hints *\/`) outside
 * quoted literals, so a comment can neither swallow the following lines once whitespace is
 * collapsed nor hide a `#{...}` parameter.
 */
export function stripSqlComments(text: string): string {
  if (!text.includes('--') && !text.includes('/*')) return text;
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      out += ch;
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      out += ' ';
      if (end < 0) break;
      i = end;
    } else if (ch === '/' && text[i + 1] === '*' && text[i + 2] !== '+') {
      const end = text.indexOf('*/', i + 2);
      out += ' ';
      if (end < 0) break;
      i = end + 1;
    } else {
      out += ch;
    }
  }
  return out;
}

function isFrameworkSubstitution(name: string): name is FrameworkSubstitution {
  return (FRAMEWORK_SUBSTITUTIONS as readonly string[]).includes(name);
}

/**
 * The property path of a `#{...}` body: what precedes the first `,` (options such as
 * `jdbcType=VARCHAR`) or `:` (the older `#{id:VARCHAR}` jdbcType shorthand). MyBatis'
 * ParameterExpression cuts at the same characters; the type is only a hint to JDBC, PostgreSQL
 * infers it, so both are ignored. A `:` with no type before the options or the end (`#{id:}`,
 * `#{id: ,javaType=int}`) is refused, as MyBatis refuses it when the mapper loads: it is a
 * typing slip, not a request for the default type.
 *
 * @throws SqlTextError for a `:` not followed by a jdbcType.
 */
function parameterPath(body: string): string {
  const cut = body.search(/[,:]/);
  if (cut < 0) return body.trim();
  const path = body.slice(0, cut).trim();
  if (body[cut] === ':') {
    const optionsAt = body.indexOf(',', cut + 1);
    const jdbcType = body.slice(cut + 1, optionsAt < 0 ? undefined : optionsAt).trim();
    if (jdbcType === '') {
      throw new SqlTextError(
        `has an invalid parameter #{${body}}: the ':' at position ${cut + 1} is not followed by a jdbcType; write #{${path}} or name the type (#{${path}:VARCHAR})`,
      );
    }
  }
  return path;
}

/**
 * Splits static statement text into parts. `#{path[:JDBCTYPE][,options]}` becomes a parameter
 * (type and options are ignored); `${orderby}` and `${pagination}` become substitutions.
 *
 * @throws SqlTextError for any other `${...}`, an unclosed token, a `#{...}` that is not a
 * property path or one whose `:` names no jdbcType.
 */
export function splitSqlText(text: string): readonly TextPart[] {
  // Fragment text is split once per include; the parts are immutable, so equal texts share them.
  const cached = splitTexts.get(text);
  if (cached) return cached;
  const parts = splitUncached(text);
  if (splitTexts.size >= SPLIT_CACHE_LIMIT) splitTexts.clear();
  splitTexts.set(text, parts);
  return parts;
}

const SPLIT_CACHE_LIMIT = 20_000;
const splitTexts = new Map<string, readonly TextPart[]>();

function splitUncached(text: string): readonly TextPart[] {
  const source = stripSqlComments(text);
  const parts: TextPart[] = [];
  const pattern = /([#$])\{/g;
  let last = 0;
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
    const end = source.indexOf('}', match.index + 2);
    if (end < 0)
      throw new SqlTextError(
        `has an unclosed '${match[1]}{' in "${source.slice(match.index).trim().slice(0, 40)}"; close it with '}'`,
      );
    if (match.index > last) parts.push({ kind: 'sql', text: source.slice(last, match.index) });
    const body = source.slice(match.index + 2, end).trim();
    if (match[1] === '$') {
      if (!isFrameworkSubstitution(body)) {
        throw new SqlTextError(
          `uses \${${body}}; only \${orderby} and \${pagination} are allowed — use #{${body}} for values (bound as parameters)`,
          'refused',
        );
      }
      parts.push({ kind: 'substitution', name: body });
    } else {
      const pathText = parameterPath(body);
      let path: Expression;
      try {
        path = parseExpression(pathText);
      } catch (error) {
        const detail = error instanceof ExpressionSyntaxError ? error.message : String(error);
        throw new SqlTextError(`has an invalid parameter #{${body}}: ${detail}`);
      }
      if (!isPropertyPath(path))
        throw new SqlTextError(
          `has an invalid parameter #{${body}}: it must be a property path such as #{title} or #{ids[0]}`,
        );
      parts.push({ kind: 'parameter', path, raw: pathText });
    }
    last = end + 1;
    pattern.lastIndex = last;
  }
  if (last < source.length) parts.push({ kind: 'sql', text: source.slice(last) });
  return parts;
}

/** True when the tree (includes not yet expanded aside) contains `${name}`. */
export function usesSubstitution(nodes: readonly SqlNode[], name: FrameworkSubstitution): boolean {
  return nodes.some((node) => {
    switch (node.kind) {
      case 'text':
        return node.parts.some((part) => part.kind === 'substitution' && part.name === name);
      case 'if':
      case 'trim':
      case 'foreach':
        return usesSubstitution(node.children, name);
      case 'choose':
        return (
          node.whens.some((when) => usesSubstitution(when.children, name)) ||
          usesSubstitution(node.otherwise ?? [], name)
        );
      default:
        return false;
    }
  });
}

/** Every `include` node still waiting for the registry, depth first. */
export function pendingIncludes(nodes: readonly SqlNode[]): Extract<SqlNode, { kind: 'include' }>[] {
  const found: Extract<SqlNode, { kind: 'include' }>[] = [];
  const visit = (list: readonly SqlNode[]): void => {
    for (const node of list) {
      if (node.kind === 'include') found.push(node);
      else if (node.kind === 'if' || node.kind === 'trim' || node.kind === 'foreach') visit(node.children);
      else if (node.kind === 'choose') {
        node.whens.forEach((when) => visit(when.children));
        visit(node.otherwise ?? []);
      }
    }
  };
  visit(nodes);
  return found;
}
