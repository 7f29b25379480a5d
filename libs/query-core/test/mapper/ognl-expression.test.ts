import { evaluate, isTruthy } from '../../src/mapper/ognl-expression';
import { ExpressionSyntaxError, isPropertyPath, parseExpression } from '../../src/mapper/ognl-parser';

describe('OGNL expressions', () => {
  const values = {
    title: 'Dune',
    empty: '',
    zero: 0,
    one: 1,
    ids: [10, 20, 30],
    none: [],
    author: { name: 'Herbert', tags: { 'sci-fi': true }, books: [{ title: 'Dune' }] },
    flag: true,
    off: false,
    nul: null,
    numText: '42',
    spaced: '  x  ',
    map: new Map<string, unknown>([['k', 'v']]),
  };

  it.each([
    ['title != null', true],
    ['missing != null', false],
    ['missing == null', true],
    ['nul == null', true],
    ["title != ''", true],
    ["empty != ''", false],
    ["empty == ''", true],
    ["zero != ''", true],
    ["zero == ''", false],
    ['one == 1', true],
    ["one == '1'", true],
    ['numText == 42', true],
    ['numText gt 41', true],
    ["title eq 'Dune'", true],
    ['title == "Dune"', true],
    ["title neq 'Dune'", false],
    ["title != 'dune'", true],
    ['one lt 2 and one lte 1 and one gt 0 and one gte 1', true],
    ['one < 2 && one <= 1 && one > 0 && one >= 1', true],
    ['one > 1 or zero == 0', true],
    ['one > 1 || zero != 0', false],
    ['!flag', false],
    ['not off', true],
    ['!(one == 1)', false],
    ['!missing', true],
    ['ids.size() > 0', true],
    ['none.size() == 0', true],
    ['none.isEmpty()', true],
    ['!ids.isEmpty()', true],
    ['ids.length == 3', true],
    ['title.length() == 4', true],
    ['ids[0] == 10', true],
    ['ids[5] == null', true],
    ["author.name == 'Herbert'", true],
    ["author['name'] == 'Herbert'", true],
    ["author.tags['sci-fi']", true],
    ["author.books[0].title == 'Dune'", true],
    ['author.missing.deeper == null', true],
    ['missing.size() > 0', false],
    ['missing > 0', false],
    ['missing < 0', false],
    ["spaced.trim() == 'x'", true],
    ['spaced.trim().length() == 1', true],
    ["title.toString() == 'Dune'", true],
    ["title.toUpperCase() == 'DUNE'", true],
    ["title.equalsIgnoreCase('dune')", true],
    ["title.startsWith('Du')", true],
    ['ids.contains(20)', true],
    ["map.k == 'v'", true],
    ["map.get('k') == 'v'", true],
    ['1 + 2 * 3 == 7', true],
    ['(1 + 2) * 3 == 9', true],
    ['7 % 4 == 3 and 7 / 2 == 3.5 and 5 - 7 == -2', true],
    ["'a' < 'b'", true],
    ['flag == true', true],
    ["flag == 'true'", true],
    ['flag ? 1 == 1 : 1 == 2', true],
    ['title.constructor == null', true],
    ['title.__proto__ == null', true],
  ])('%s → %s', (expression, expected) => {
    expect(isTruthy(evaluate(expression, values))).toBe(expected);
  });

  it('concatenates strings for bind values', () => {
    expect(evaluate("'%' + title + '%'", values)).toBe('%Dune%');
    expect(evaluate("'%' + missing + '%'", values)).toBe('%%');
    expect(evaluate('title + one', values)).toBe('Dune1');
    expect(evaluate('one + 2', values)).toBe(3);
    expect(evaluate('one / 0', values)).toBeNull();
    expect(evaluate("'x' * 2", values)).toBeNull();
    expect(evaluate('-one', values)).toBe(-1);
    expect(evaluate("'it\\'s'", values)).toBe("it's");
    expect(evaluate('1L + 0.5d', values)).toBe(1.5);
  });

  it('exposes the whole parameter map as _parameter', () => {
    expect(evaluate('_parameter.title', values)).toBe('Dune');
  });

  it('treats null as false, numbers by value and any other non-null value (also empty string) as true', () => {
    expect(isTruthy(null)).toBe(false);
    expect(isTruthy(undefined)).toBe(false);
    expect(isTruthy(0)).toBe(false);
    expect(isTruthy(2)).toBe(true);
    expect(isTruthy('')).toBe(true);
    expect(isTruthy([])).toBe(true);
  });

  it.each([
    ['title ==', 'unexpected end'],
    ['title = 1', "unexpected character '='"],
    ["'open", 'unterminated string literal'],
    ['(a', "expected ')'"],
    ['a.foo()', "unknown method 'foo()'"],
    ['@java.lang.Math@max(1,2)', "unexpected character '@'"],
    ['', 'empty expression'],
    ['a b', "unexpected 'b'"],
  ])('refuses %j', (source, message) => {
    expect(() => parseExpression(source)).toThrow(ExpressionSyntaxError);
    expect(() => parseExpression(source)).toThrow(message);
  });

  it('recognises property paths', () => {
    expect(isPropertyPath(parseExpression('a'))).toBe(true);
    expect(isPropertyPath(parseExpression("a.b[0]['c']"))).toBe(true);
    expect(isPropertyPath(parseExpression('a[i]'))).toBe(true);
    expect(isPropertyPath(parseExpression('a + 1'))).toBe(false);
    expect(isPropertyPath(parseExpression('a.size()'))).toBe(false);
  });
});
