/**
 * Values a careless or hostile client sends: control characters (U+0000 first), lone surrogates,
 * emoji, right-to-left marks, blanks around names, strings at and far past every limit, numbers
 * at and past the bounds, deep nesting, wrong types. Mixed into the requests generated from the
 * document's schemas by the property tests.
 */
import fc from 'fast-check';
import type { JsonValue } from './json-value';

const ODD_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\u0001',
  'x\u0007y',
  '\u001b[31m',
  '\u001f',
  '\u007f',
  '\t',
  'line\nbreak',
  '\r\n',
  ' leading',
  'trailing ',
  '\u00a0nbsp',
  '\u2028',
  '\ud800',
  'x\udfffy',
  '😀',
  '👩‍👩‍👧‍👦',
  '\u202eevil',
  'é',
  '%00',
  '%',
  "'; drop table process_definition; --",
  '${PROCESS_MANAGEMENT_API_KEY}',
  '../../etc/passwd',
  '<script>',
  '',
  ' ',
  'null',
  '0',
  'true',
];

/** A long string: lengths at and past the limits of the schemas, and far beyond. */
const longString = fc
  .constantFrom(79, 80, 81, 199, 200, 201, 511, 512, 513, 1000, 1001, 5_000, 100_000)
  .chain((length) => fc.constantFrom('x', 'é', '😀', ' ').map((unit) => unit.repeat(length)));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: longString },
);

export const hostileNumber: fc.Arbitrary<number> = fc.constantFrom(
  -1,
  0,
  1,
  0.5,
  -0.5,
  24,
  25,
  99,
  100,
  101,
  1_000_000,
  1_000_001,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  1e21,
  1e308,
  -1e308,
);

/** `{ "a": { "a": … } }` or `[[[…]]]`, 10 to 1,000 levels (deeper ones are sent as text: see deepJsonText). */
export const deepNesting: fc.Arbitrary<JsonValue> = fc
  .tuple(fc.constantFrom(10, 65, 200, 1_000), fc.boolean())
  .map(([depth, arrays]) => {
    let value: JsonValue = 'bottom';
    for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
    return value;
  });

export const hostileValue: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant<JsonValue>([]) },
  { weight: 1, arbitrary: fc.constant<JsonValue>({}) },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue> },
);

/** Query text: numbers past the limits written in odd ways, and the strings above. */
export const hostileQueryValue: fc.Arbitrary<string | string[]> = fc.oneof(
  { weight: 3, arbitrary: hostileString.filter((s) => s.length < 2_000) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '-1',
      '101',
      '1000001',
      '1e3',
      '1.5',
      '0x10',
      ' 5',
      '5 ',
      '+5',
      '99999999999999999999',
      'NaN',
      'Infinity',
      '0',
      '100',
    ),
  },
  { weight: 1, arbitrary: fc.array(fc.constantFrom('1', '2', 'x'), { minLength: 2, maxLength: 3 }) },
);

/** Unknown field names, some of them tricky. */
export const unknownFieldName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'processtype', 'extra', '', ' ', '\u0000', 'a.b', '$ref'),
  fc.string({ maxLength: 12 }),
);

/** JSON text nested deeper than objects are built here: `[[[…]]]`, 2,000 to 200,000 levels. */
export const deepJsonText: fc.Arbitrary<string> = fc
  .constantFrom(2_000, 10_000, 100_000, 200_000)
  .map((depth) => `${'['.repeat(depth)}1${']'.repeat(depth)}`);
