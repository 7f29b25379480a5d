import { isWorkerPayloadError, listOf, optional, shape, type FieldKind, type PayloadType } from '@fw/process-utils';

/** True when A and B are assignable both ways (an optional key differs from a required one). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only when its type argument is `true` (checked by `npm run typecheck`). */
function typeIs<T extends true>(): T | void {
  return undefined;
}

function failure(fn: () => unknown): { kind: string; message: string; field?: string } | undefined {
  try {
    fn();
  } catch (e) {
    if (isWorkerPayloadError(e)) return { kind: e.kind, message: e.message, field: e.field };
    throw e;
  }
  return undefined;
}

describe('payload schemas', () => {
  const item = shape({ sku: 'string', qty: 'integer' });
  const order = shape({
    id: 'string',
    note: 'string?',
    items: listOf(item),
    meta: optional(shape({ source: 'string' })),
  });
  type Order = PayloadType<typeof order>;

  it('accepts valid payloads, tolerates unknown fields and never changes the raw value', () => {
    const raw = { id: 'o1', items: [{ sku: 'a', qty: 2, colour: 'red' }], extra: true, note: null };
    const parsed: Order = order.parse(raw, 'input');
    expect(parsed).toEqual(raw);
    expect(parsed).not.toBe(raw);
    expect(parsed.items[0]?.qty).toBe(2);
  });

  it('names the kind and the field of every failure', () => {
    expect(failure(() => order.parse([], 'input'))).toEqual({
      kind: 'MALFORMED_PAYLOAD',
      message: "'input' must be a JSON object, got an array",
      field: 'input',
    });
    expect(failure(() => order.parse({ items: [] }, 'input'))).toMatchObject({
      kind: 'MALFORMED_PAYLOAD',
      field: 'input.id',
    });
    expect(failure(() => order.parse({ id: 'o', items: [{ sku: 'a', qty: 1.5 }] }, 'input'))).toEqual({
      kind: 'INCOMPATIBLE_FIELD_TYPE',
      message: "'input.items[0].qty' must be an integer, got a number",
      field: 'input.items[0].qty',
    });
    expect(failure(() => order.parse({ id: 'o', items: {} }, 'input'))).toMatchObject({
      kind: 'INCOMPATIBLE_FIELD_TYPE',
      field: 'input.items',
    });
    expect(failure(() => order.parse({ id: 'o', items: [], meta: { source: 1 } }, 'input'))).toMatchObject({
      kind: 'INCOMPATIBLE_FIELD_TYPE',
      field: 'input.meta.source',
    });
    expect(failure(() => shape({ n: 'number' }).parse({ n: Number.NaN }, 'x'))).toMatchObject({
      kind: 'INCOMPATIBLE_FIELD_TYPE',
    });
  });

  describe('listOf a primitive kind', () => {
    const cases: Array<{ kind: FieldKind; good: unknown[]; bad: unknown; expected: string }> = [
      { kind: 'string', good: ['a', ''], bad: 3, expected: 'must be a string, got a number' },
      { kind: 'number', good: [1, 2.5, -3, 0], bad: 'three', expected: 'must be a number, got a string' },
      { kind: 'integer', good: [1, -2, 0], bad: 1.5, expected: 'must be an integer, got a number' },
      { kind: 'boolean', good: [true, false], bad: 'yes', expected: 'must be a boolean, got a string' },
      { kind: 'object', good: [{}, { a: 1 }], bad: [], expected: 'must be an object, got an array' },
      { kind: 'array', good: [[], [1, 'x']], bad: {}, expected: 'must be an array, got an object' },
    ];

    it.each(cases)(
      'listOf($kind) accepts good items and names a bad one by its index',
      ({ kind, good, bad, expected }) => {
        const list = listOf(kind);
        expect(list.parse(good, 'input.values')).toEqual(good);
        expect(list.parse([], 'input.values')).toEqual([]);
        expect(failure(() => list.parse([...good, bad], 'input.values'))).toEqual({
          kind: 'INCOMPATIBLE_FIELD_TYPE',
          message: `'input.values[${good.length}]' ${expected}`,
          field: `input.values[${good.length}]`,
        });
        expect(failure(() => list.parse([good[0], null], 'input.values'))?.message).toBe(
          `'input.values[1]' must be ${expected.split(', got')[0]?.replace('must be ', '')}, got null`,
        );
      },
    );

    it("listOf('unknown') takes any item, and a list of the wrong type is INCOMPATIBLE_FIELD_TYPE", () => {
      expect(listOf('unknown').parse([1, 'a', null], 'x')).toEqual([1, 'a', null]);
      expect(failure(() => listOf('number').parse({ 0: 1 }, 'input.numbers'))).toEqual({
        kind: 'INCOMPATIBLE_FIELD_TYPE',
        message: "'input.numbers' must be an array, got an object",
        field: 'input.numbers',
      });
      expect(failure(() => listOf('number').parse('1,2', 'input.numbers'))?.message).toBe(
        "'input.numbers' must be an array, got a string",
      );
    });

    it('names the index of a bad item inside a shape, also in a list of lists', () => {
      const input = shape({ numbers: listOf('number'), grid: listOf(listOf('integer')) });
      expect(failure(() => input.parse({ numbers: [1, 2, 'three'], grid: [] }, 'input'))).toEqual({
        kind: 'INCOMPATIBLE_FIELD_TYPE',
        message: "'input.numbers[2]' must be a number, got a string",
        field: 'input.numbers[2]',
      });
      expect(failure(() => input.parse({ numbers: [], grid: [[1], [2, 2.5]] }, 'input'))?.field).toBe(
        'input.grid[1][1]',
      );
      expect(input.parse({ numbers: [1], grid: [[1, 2]] }, 'input')).toEqual({ numbers: [1], grid: [[1, 2]] });
    });

    it('infers the element type', () => {
      const numbers: number[] = listOf('number').parse([1], 'n');
      const integers: number[] = listOf('integer').parse([1], 'i');
      const words: string[] = listOf('string').parse(['a'], 'w');
      const flags: boolean[] = listOf('boolean').parse([true], 'f');
      const objects: Record<string, unknown>[] = listOf('object').parse([{}], 'o');
      expect([numbers, integers, words, flags, objects]).toEqual([[1], [1], ['a'], [true], [{}]]);
      const _input = shape({
        numbers: listOf('number'),
        items: listOf(item),
        nested: shape({ a: 'string' }),
        maybe: optional(listOf('string')),
        note: 'string?',
      });
      typeIs<
        Same<
          PayloadType<typeof _input>,
          {
            numbers: number[];
            items: Array<{ sku: string; qty: number }>;
            nested: { a: string };
            maybe?: string[];
            note?: string;
          }
        >
      >();
      const _numberList = listOf('number');
      const _itemList = listOf(item);
      typeIs<Same<PayloadType<typeof _numberList>, number[]>>();
      typeIs<Same<PayloadType<typeof _itemList>, Array<{ sku: string; qty: number }>>>();
      // @ts-expect-error an optional kind is no list item kind
      expect(() => listOf('number?')).toThrow("unknown field kind 'number?' for listOf");
    });

    it('refuses an unknown kind when the schema is built (a typo would check nothing)', () => {
      expect(() => listOf('float' as FieldKind)).toThrow("unknown field kind 'float' for listOf");
      expect(() => shape({ n: 'numbr' as FieldKind })).toThrow("unknown field kind 'numbr' for field 'n'");
    });
  });

  describe('a missing required field is MALFORMED_PAYLOAD naming it, for every field kind', () => {
    const input = shape({
      count: 'integer',
      numbers: listOf('number'),
      words: listOf('string'),
      items: listOf(item),
      nested: shape({ a: 'string' }),
      maybe: optional(shape({ b: 'boolean' })),
      maybeList: optional(listOf('number')),
    });
    const complete = { count: 1, numbers: [1], words: ['w'], items: [], nested: { a: 'x' } };
    const required = ['count', 'numbers', 'words', 'items', 'nested'] as const;

    it.each(required.flatMap((field) => [undefined, null].map((absent) => ({ field, absent }))))(
      '$field: $absent',
      ({ field, absent }) => {
        const raw: Record<string, unknown> = { ...complete, [field]: absent };
        if (absent === undefined) delete raw[field];
        expect(failure(() => input.parse(raw, 'input'))).toEqual({
          kind: 'MALFORMED_PAYLOAD',
          message: `'input.${field}' is required`,
          field: `input.${field}`,
        });
      },
    );

    it('inside nested objects and list items too', () => {
      expect(failure(() => input.parse({ ...complete, nested: {} }, 'input'))).toEqual({
        kind: 'MALFORMED_PAYLOAD',
        message: "'input.nested.a' is required",
        field: 'input.nested.a',
      });
      expect(failure(() => input.parse({ ...complete, items: [{ sku: 'a', qty: 1 }, { qty: 1 }] }, 'input'))).toEqual({
        kind: 'MALFORMED_PAYLOAD',
        message: "'input.items[1].sku' is required",
        field: 'input.items[1].sku',
      });
      const deep = shape({ outer: shape({ inner: shape({ list: listOf('number') }) }) });
      expect(failure(() => deep.parse({ outer: { inner: {} } }, 'input'))).toEqual({
        kind: 'MALFORMED_PAYLOAD',
        message: "'input.outer.inner.list' is required",
        field: 'input.outer.inner.list',
      });
    });

    it('optional nested fields may be absent (undefined or null)', () => {
      expect(input.parse(complete, 'input')).toEqual(complete);
      const parsed = input.parse({ ...complete, maybe: null, maybeList: null }, 'input');
      expect(parsed.maybe).toBeUndefined();
      expect(parsed.maybeList).toBeUndefined();
      expect(input.parse({ ...complete, maybe: { b: true }, maybeList: [2] }, 'input')).toMatchObject({
        maybe: { b: true },
        maybeList: [2],
      });
    });

    it('a present field of the wrong type stays INCOMPATIBLE_FIELD_TYPE, nested objects and list items included', () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ count: '1' }, 'input.count', 'must be an integer, got a string'],
        [{ numbers: 3 }, 'input.numbers', 'must be an array, got a number'],
        [{ words: 'w' }, 'input.words', 'must be an array, got a string'],
        [{ items: {} }, 'input.items', 'must be an array, got an object'],
        [{ items: ['x'] }, 'input.items[0]', 'must be an object, got a string'],
        [{ items: [null] }, 'input.items[0]', 'must be an object, got null'],
        [{ nested: 'x' }, 'input.nested', 'must be an object, got a string'],
        [{ nested: [] }, 'input.nested', 'must be an object, got an array'],
        [{ maybe: 7 }, 'input.maybe', 'must be an object, got a number'],
        [{ maybeList: [1, true] }, 'input.maybeList[1]', 'must be a number, got a boolean'],
      ];
      for (const [change, field, message] of cases) {
        expect(failure(() => input.parse({ ...complete, ...change }, 'input'))).toEqual({
          kind: 'INCOMPATIBLE_FIELD_TYPE',
          message: `'${field}' ${message}`,
          field,
        });
      }
    });

    it('the payload itself not being an object stays MALFORMED_PAYLOAD', () => {
      expect(failure(() => input.parse(null, 'input'))).toEqual({
        kind: 'MALFORMED_PAYLOAD',
        message: "'input' must be a JSON object, got null",
        field: 'input',
      });
      expect(failure(() => optional(input).parse('x', 'input'))?.kind).toBe('MALFORMED_PAYLOAD');
    });
  });

  it('words every message as English: a/an, and no article before null or undefined', () => {
    const kinds = shape({ s: 'string?', n: 'number?', i: 'integer?', b: 'boolean?', o: 'object?', a: 'array?' });
    const message = (raw: unknown) => failure(() => kinds.parse(raw, 'x'))?.message;
    expect(message({ s: 1 })).toBe("'x.s' must be a string, got a number");
    expect(message({ n: '1' })).toBe("'x.n' must be a number, got a string");
    expect(message({ i: true })).toBe("'x.i' must be an integer, got a boolean");
    expect(message({ b: {} })).toBe("'x.b' must be a boolean, got an object");
    expect(message({ o: [] })).toBe("'x.o' must be an object, got an array");
    expect(message({ a: 'a' })).toBe("'x.a' must be an array, got a string");
    expect(message(undefined)).toBe("'x' must be a JSON object, got undefined");
    expect(message([])).toBe("'x' must be a JSON object, got an array");
    expect(failure(() => listOf('number').parse(undefined, 'x'))?.message).toBe("'x' must be an array, got undefined");
    expect(failure(() => listOf('number').parse(null, 'x'))?.message).toBe("'x' must be an array, got null");
    expect(failure(() => listOf('boolean').parse([undefined], 'x'))?.message).toBe(
      "'x[0]' must be a boolean, got undefined",
    );
    expect(failure(() => shape({ n: 'number' }).parse({}, 'x'))?.message).toBe("'x.n' is required");
  });
});
