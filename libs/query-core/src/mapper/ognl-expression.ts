/**
 * Evaluation of parsed OGNL-style expressions (see `ognl-parser.ts`) with MyBatis semantics:
 *
 * - A missing variable or property is `null`, never an exception; so is a method called on `null`
 *   or on a value that lacks it, and an arithmetic result that is not a finite number.
 * - Truth (`if test`, `!`, `and`, `or`): `null` is false, a boolean is itself, a number is true
 *   when non-zero, anything else (also `''`) is true — MyBatis' `ExpressionEvaluator` rule.
 * - `==` / `!=`: `null == undefined`; a number and a numeric string compare as numbers (`1 == '1'`);
 *   a number and a non-numeric string are different (so `0 != ''` is true, unlike Java OGNL);
 *   a boolean and a string compare by text (`true == 'true'`); dates by time.
 * - `<`, `>`, ...: numbers (or numeric strings) numerically, strings by code points, dates by time;
 *   any comparison involving `null` is false.
 * - `+` concatenates when either side is a string (`null` adds nothing), else adds numbers.
 * - Only own properties are read (no prototype access: `constructor`, `__proto__` are `null`).
 */
import { type Expression, type ExpressionMethod, parseExpression } from './ognl-parser';

/** Where identifiers are looked up. */
export interface ExpressionScope {
  /** The value of a root identifier, or `undefined` when unknown. */
  lookup(name: string): unknown;
}

/** A scope over one plain object (`_parameter` is the object itself). */
export function objectScope(values: Readonly<Record<string, unknown>>): ExpressionScope {
  return { lookup: (name) => (name === '_parameter' ? values : readProperty(values, name)) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Reads `key` from `target` like OGNL reads a property, list element or map entry; missing is `null`. */
export function readProperty(target: unknown, key: unknown): unknown {
  if (target === null || target === undefined) return null;
  if (target instanceof Map) {
    if (target.has(key)) return target.get(key) ?? null;
    return key === 'size' ? target.size : key === 'empty' ? target.size === 0 : null;
  }
  if (Array.isArray(target) || typeof target === 'string') {
    const index =
      typeof key === 'number' ? key : typeof key === 'string' && /^[0-9]+$/.test(key) ? Number(key) : undefined;
    if (index !== undefined) return target[index] ?? null;
    if (key === 'length' || key === 'size') return target.length;
    return key === 'empty' ? target.length === 0 : null;
  }
  if (target instanceof Set) return key === 'size' ? target.size : key === 'empty' ? target.size === 0 : null;
  if (typeof key === 'number') key = String(key);
  if (typeof key !== 'string' || !isRecord(target)) return null;
  return Object.prototype.hasOwnProperty.call(target, key) ? (target[key] ?? null) : null;
}

/** The truth value of `value` in a test (MyBatis `ExpressionEvaluator.evaluateBoolean`). */
export function isTruthy(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'bigint') return value !== 0n;
  return true;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isNaN(n) ? undefined : n;
  }
  return undefined;
}

function isNumeric(value: unknown): boolean {
  return typeof value === 'number' || typeof value === 'bigint';
}

/** Equality as `==` evaluates it (see the module comment). */
export function looselyEqual(left: unknown, right: unknown): boolean {
  const a = left ?? null;
  const b = right ?? null;
  if (a === null || b === null) return a === b;
  if (isNumeric(a) || isNumeric(b)) {
    const x = toNumber(a);
    const y = toNumber(b);
    return x !== undefined && y !== undefined && x === y;
  }
  if (typeof a === 'boolean' || typeof b === 'boolean') return String(a) === String(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}

function compare(left: unknown, right: unknown): number | undefined {
  const a = left ?? null;
  const b = right ?? null;
  if (a === null || b === null) return undefined;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  const x = toNumber(a);
  const y = toNumber(b);
  if (x !== undefined && y !== undefined) return x - y;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

function sizeOf(value: unknown): number | null {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  if (isRecord(value)) return Object.keys(value).length;
  return null;
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (isRecord(value) && !Array.isArray(value)) return JSON.stringify(value);
  return String(value);
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

function arithmetic(operator: '+' | '-' | '*' | '/' | '%', left: unknown, right: unknown): unknown {
  if (operator === '+' && (typeof left === 'string' || typeof right === 'string')) return asText(left) + asText(right);
  const x = toNumber(left);
  const y = toNumber(right);
  if (x === undefined || y === undefined) return null;
  switch (operator) {
    case '+':
      return finite(x + y);
    case '-':
      return finite(x - y);
    case '*':
      return finite(x * y);
    case '/':
      return finite(x / y);
    default:
      return finite(x % y);
  }
}

function callMethod(target: unknown, method: ExpressionMethod, args: unknown[]): unknown {
  if (target === null || target === undefined) return null;
  const [first, second] = args;
  const text = typeof target === 'string' ? target : undefined;
  switch (method) {
    case 'size':
    case 'length':
      return sizeOf(target);
    case 'isEmpty': {
      const size = sizeOf(target);
      return size === null ? null : size === 0;
    }
    case 'toString':
      return asText(target);
    case 'trim':
      return text === undefined ? null : text.trim();
    case 'toUpperCase':
      return text === undefined ? null : text.toUpperCase();
    case 'toLowerCase':
      return text === undefined ? null : text.toLowerCase();
    case 'equals':
      return looselyEqual(target, first);
    case 'equalsIgnoreCase':
      return text !== undefined && typeof first === 'string' && text.toLowerCase() === first.toLowerCase();
    case 'contains':
      if (text !== undefined) return typeof first === 'string' && text.includes(first);
      if (Array.isArray(target)) return target.some((item) => looselyEqual(item, first));
      if (target instanceof Set) return [...target].some((item) => looselyEqual(item, first));
      return null;
    case 'containsKey':
      if (target instanceof Map) return target.has(first);
      return isRecord(target) && typeof first === 'string' && Object.prototype.hasOwnProperty.call(target, first);
    case 'startsWith':
      return text === undefined ? null : typeof first === 'string' && text.startsWith(first);
    case 'endsWith':
      return text === undefined ? null : typeof first === 'string' && text.endsWith(first);
    case 'indexOf':
      if (text !== undefined) return typeof first === 'string' ? text.indexOf(first) : -1;
      if (Array.isArray(target)) return target.findIndex((item) => looselyEqual(item, first));
      return null;
    case 'get':
      return readProperty(target, first);
    case 'substring': {
      const from = toNumber(first);
      const to = second === undefined ? undefined : toNumber(second);
      return text === undefined || from === undefined ? null : text.substring(from, to);
    }
  }
}

/**
 * Evaluates a parsed expression against a scope.
 *
 * @example
 * evaluateExpression(parseExpression("'%' + name + '%'"), objectScope({ name: 'ann' })); // '%ann%'
 */
export function evaluateExpression(expression: Expression, scope: ExpressionScope): unknown {
  switch (expression.type) {
    case 'literal':
      return expression.value;
    case 'identifier':
      return scope.lookup(expression.name) ?? null;
    case 'member':
      return readProperty(evaluateExpression(expression.object, scope), expression.property);
    case 'index':
      return readProperty(evaluateExpression(expression.object, scope), evaluateExpression(expression.index, scope));
    case 'call':
      return callMethod(
        evaluateExpression(expression.object, scope),
        expression.method,
        expression.args.map((arg) => evaluateExpression(arg, scope)),
      );
    case 'not':
      return !isTruthy(evaluateExpression(expression.operand, scope));
    case 'negate': {
      const n = toNumber(evaluateExpression(expression.operand, scope));
      return n === undefined ? null : -n;
    }
    case 'logical': {
      const left = isTruthy(evaluateExpression(expression.left, scope));
      if (expression.operator === '&&') return left && isTruthy(evaluateExpression(expression.right, scope));
      return left || isTruthy(evaluateExpression(expression.right, scope));
    }
    case 'conditional':
      return isTruthy(evaluateExpression(expression.test, scope))
        ? evaluateExpression(expression.consequent, scope)
        : evaluateExpression(expression.alternate, scope);
    case 'binary': {
      const left = evaluateExpression(expression.left, scope);
      const right = evaluateExpression(expression.right, scope);
      switch (expression.operator) {
        case '==':
          return looselyEqual(left, right);
        case '!=':
          return !looselyEqual(left, right);
        case '<':
        case '<=':
        case '>':
        case '>=': {
          const order = compare(left, right);
          if (order === undefined) return false;
          if (expression.operator === '<') return order < 0;
          if (expression.operator === '<=') return order <= 0;
          if (expression.operator === '>') return order > 0;
          return order >= 0;
        }
        default:
          return arithmetic(expression.operator, left, right);
      }
    }
  }
}

/** Parses and evaluates in one step (convenience for tests and one-off use). */
export function evaluate(source: string, values: Readonly<Record<string, unknown>>): unknown {
  return evaluateExpression(parseExpression(source), objectScope(values));
}
