/**
 * Parser of the small OGNL subset used by mapper `test` and `bind value` attributes. Expressions
 * are parsed once, when the mapper loads, into an {@link Expression} tree; `ognl-expression.ts`
 * evaluates the tree at render time. No `eval`, no `Function`.
 *
 * Grammar, loosest binding first:
 *
 *     conditional := or ('?' conditional ':' conditional)?
 *     or          := and (('||' | 'or') and)*
 *     and         := equality (('&&' | 'and') equality)*
 *     equality    := relational (('==' | '!=' | 'eq' | 'neq') relational)*
 *     relational  := additive (('<' | '<=' | '>' | '>=' | 'lt' | 'lte' | 'gt' | 'gte') additive)*
 *     additive    := multiplicative (('+' | '-') multiplicative)*
 *     multiplicative := unary (('*' | '/' | '%') unary)*
 *     unary       := ('!' | 'not' | '-') unary | postfix
 *     postfix     := primary ('.' name | '.' method '(' args ')' | '[' conditional ']')*
 *     primary     := literal | identifier | '(' conditional ')'
 */
import { FwError } from '@fw/core';
import { MapperErrorCodes } from '../errors/mapper-error-codes';

/** Comparison and arithmetic operators, after word aliases (`eq`, `lt`, ...) are normalised. */
export type BinaryOperator = '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';

/** Methods an expression may call; anything else is refused when the mapper loads. */
export const EXPRESSION_METHODS = [
  'size',
  'length',
  'isEmpty',
  'toString',
  'trim',
  'toUpperCase',
  'toLowerCase',
  'equals',
  'equalsIgnoreCase',
  'contains',
  'containsKey',
  'startsWith',
  'endsWith',
  'indexOf',
  'get',
  'substring',
] as const;
export type ExpressionMethod = (typeof EXPRESSION_METHODS)[number];

/** The parsed form of an expression. */
export type Expression =
  | { readonly type: 'literal'; readonly value: string | number | boolean | null }
  | { readonly type: 'identifier'; readonly name: string }
  | { readonly type: 'member'; readonly object: Expression; readonly property: string }
  | { readonly type: 'index'; readonly object: Expression; readonly index: Expression }
  | {
      readonly type: 'call';
      readonly object: Expression;
      readonly method: ExpressionMethod;
      readonly args: readonly Expression[];
    }
  | { readonly type: 'not'; readonly operand: Expression }
  | { readonly type: 'negate'; readonly operand: Expression }
  | {
      readonly type: 'binary';
      readonly operator: BinaryOperator;
      readonly left: Expression;
      readonly right: Expression;
    }
  | { readonly type: 'logical'; readonly operator: '&&' | '||'; readonly left: Expression; readonly right: Expression }
  | {
      readonly type: 'conditional';
      readonly test: Expression;
      readonly consequent: Expression;
      readonly alternate: Expression;
    };

/** Raised for an expression that does not parse; `message` says where and what was expected. */
export class ExpressionSyntaxError extends FwError {
  constructor(
    readonly expression: string,
    readonly position: number,
    detail: string,
  ) {
    super({
      code: 500,
      subErrorCode: MapperErrorCodes.expressionSyntax,
      description: `${detail} at position ${position + 1} of "${expression}"`,
      expose: false,
    });
    this.name = 'ExpressionSyntaxError';
  }
}

type TokenKind = 'number' | 'string' | 'name' | 'punct' | 'end';
interface Token {
  kind: TokenKind;
  text: string;
  value?: string | number;
  position: number;
}

const PUNCTUATION = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '<',
  '>',
  '!',
  '+',
  '-',
  '*',
  '/',
  '%',
  '(',
  ')',
  '[',
  ']',
  '.',
  ',',
  '?',
  ':',
];
const WORD_OPERATORS = new Map<string, string>(
  Object.entries({
    and: '&&',
    or: '||',
    not: '!',
    eq: '==',
    neq: '!=',
    lt: '<',
    lte: '<=',
    gt: '>',
    gte: '>=',
  }),
);
const ESCAPES = new Map<string, string>(Object.entries({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' }));

const NUMBER = /(?:0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)[lLdDfF]?/y;
const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/y;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const start = i;
    if (ch === "'" || ch === '"') {
      let text = '';
      i++;
      while (i < source.length && source[i] !== ch) {
        if (source[i] === '\\' && i + 1 < source.length) {
          const next = source[i + 1];
          text += ESCAPES.get(next) ?? next;
          i += 2;
        } else {
          text += source[i++];
        }
      }
      if (i >= source.length) throw new ExpressionSyntaxError(source, start, 'unterminated string literal');
      i++;
      tokens.push({ kind: 'string', text: source.slice(start, i), value: text, position: start });
      continue;
    }
    if (ch >= '0' && ch <= '9') {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(source);
      const text = match ? match[0] : ch;
      const digits = text.replace(/[lLdDfF]$/, '');
      tokens.push({ kind: 'number', text, value: Number(digits), position: start });
      i += text.length;
      continue;
    }
    if (/[A-Za-z_$]/.test(ch)) {
      IDENTIFIER.lastIndex = i;
      const match = IDENTIFIER.exec(source);
      const text = match ? match[0] : ch;
      const operator = WORD_OPERATORS.get(text);
      tokens.push(
        operator ? { kind: 'punct', text: operator, position: start } : { kind: 'name', text, position: start },
      );
      i += text.length;
      continue;
    }
    const punct = PUNCTUATION.find((p) => source.startsWith(p, i));
    if (!punct) throw new ExpressionSyntaxError(source, i, `unexpected character '${ch}'`);
    tokens.push({ kind: 'punct', text: punct, position: start });
    i += punct.length;
  }
  tokens.push({ kind: 'end', text: '', position: source.length });
  return tokens;
}

class ExpressionParser {
  private readonly tokens: Token[];
  private pos = 0;

  constructor(private readonly source: string) {
    this.tokens = tokenize(source);
  }

  parse(): Expression {
    if (this.peek().kind === 'end') throw new ExpressionSyntaxError(this.source, 0, 'empty expression');
    const expression = this.conditional();
    const rest = this.peek();
    if (rest.kind !== 'end') throw new ExpressionSyntaxError(this.source, rest.position, `unexpected '${rest.text}'`);
    return expression;
  }

  private peek(): Token {
    return this.tokens[this.pos];
  }

  private next(): Token {
    return this.tokens[this.pos++];
  }

  private accept(...texts: string[]): string | undefined {
    const token = this.peek();
    if (token.kind === 'punct' && texts.includes(token.text)) {
      this.pos++;
      return token.text;
    }
    return undefined;
  }

  private expect(text: string): void {
    const token = this.peek();
    if (!this.accept(text)) {
      throw new ExpressionSyntaxError(
        this.source,
        token.position,
        `expected '${text}' but found ${token.kind === 'end' ? 'the end' : `'${token.text}'`}`,
      );
    }
  }

  private conditional(): Expression {
    const test = this.or();
    if (!this.accept('?')) return test;
    const consequent = this.conditional();
    this.expect(':');
    const alternate = this.conditional();
    return { type: 'conditional', test, consequent, alternate };
  }

  private or(): Expression {
    let left = this.and();
    while (this.accept('||')) left = { type: 'logical', operator: '||', left, right: this.and() };
    return left;
  }

  private and(): Expression {
    let left = this.equality();
    while (this.accept('&&')) left = { type: 'logical', operator: '&&', left, right: this.equality() };
    return left;
  }

  private binaryLevel(operators: BinaryOperator[], operand: () => Expression): Expression {
    let left = operand();
    for (let op = this.accept(...operators); op; op = this.accept(...operators)) {
      left = { type: 'binary', operator: op as BinaryOperator, left, right: operand() };
    }
    return left;
  }

  private equality(): Expression {
    return this.binaryLevel(['==', '!='], () => this.relational());
  }

  private relational(): Expression {
    return this.binaryLevel(['<', '<=', '>', '>='], () => this.additive());
  }

  private additive(): Expression {
    return this.binaryLevel(['+', '-'], () => this.multiplicative());
  }

  private multiplicative(): Expression {
    return this.binaryLevel(['*', '/', '%'], () => this.unary());
  }

  private unary(): Expression {
    if (this.accept('!')) return { type: 'not', operand: this.unary() };
    if (this.accept('-')) return { type: 'negate', operand: this.unary() };
    return this.postfix();
  }

  private postfix(): Expression {
    let expression = this.primary();
    for (;;) {
      if (this.accept('.')) {
        const name = this.next();
        if (name.kind !== 'name')
          throw new ExpressionSyntaxError(this.source, name.position, "expected a property name after '.'");
        if (this.accept('(')) {
          if (!(EXPRESSION_METHODS as readonly string[]).includes(name.text)) {
            throw new ExpressionSyntaxError(
              this.source,
              name.position,
              `unknown method '${name.text}()' (supported: ${EXPRESSION_METHODS.join(', ')})`,
            );
          }
          const args: Expression[] = [];
          if (!this.accept(')')) {
            do args.push(this.conditional());
            while (this.accept(','));
            this.expect(')');
          }
          expression = { type: 'call', object: expression, method: name.text as ExpressionMethod, args };
        } else {
          expression = { type: 'member', object: expression, property: name.text };
        }
      } else if (this.accept('[')) {
        const index = this.conditional();
        this.expect(']');
        expression = { type: 'index', object: expression, index };
      } else {
        return expression;
      }
    }
  }

  private primary(): Expression {
    const token = this.next();
    switch (token.kind) {
      case 'number':
      case 'string':
        return { type: 'literal', value: token.value ?? null };
      case 'name':
        if (token.text === 'true' || token.text === 'false') return { type: 'literal', value: token.text === 'true' };
        if (token.text === 'null') return { type: 'literal', value: null };
        return { type: 'identifier', name: token.text };
      case 'punct':
        if (token.text === '(') {
          const inner = this.conditional();
          this.expect(')');
          return inner;
        }
        throw new ExpressionSyntaxError(this.source, token.position, `unexpected '${token.text}'`);
      default:
        throw new ExpressionSyntaxError(this.source, token.position, 'unexpected end of expression');
    }
  }
}

/**
 * Parses an OGNL-style expression.
 *
 * @throws {@link ExpressionSyntaxError} when the text is not a valid expression.
 * @example
 * parseExpression("title != null and title != ''");
 */
export function parseExpression(source: string): Expression {
  // Fragments are compiled once per include, so the same expressions come back many times; a
  // parsed tree is immutable and can be shared. Bounded, in case a process loads mappers forever.
  const cached = parsedExpressions.get(source);
  if (cached) return cached;
  const parsed = new ExpressionParser(source).parse();
  if (parsedExpressions.size >= PARSE_CACHE_LIMIT) parsedExpressions.clear();
  parsedExpressions.set(source, parsed);
  return parsed;
}

const PARSE_CACHE_LIMIT = 20_000;
const parsedExpressions = new Map<string, Expression>();

/** True when `expression` is a plain property path (`a`, `a.b`, `a[0]`, `a['k'].b`), as `#{...}` requires. */
export function isPropertyPath(expression: Expression): boolean {
  switch (expression.type) {
    case 'identifier':
      return true;
    case 'member':
      return isPropertyPath(expression.object);
    case 'index':
      return (
        isPropertyPath(expression.object) && (expression.index.type === 'literal' || isPropertyPath(expression.index))
      );
    default:
      return false;
  }
}
