/**
 * The TypeScript type of the values a JSON Schema accepts, read from the schema's own literal type
 * (a schema written `as const`, or built by helpers that keep their literal types). A wire shape
 * is then written once, as the schema a validator checks, and its type follows from it.
 *
 * Covers the keywords the framework's schemas use: `type` (one name or a list, `null` included),
 * `const`, `enum`, `oneOf`, `items`, `properties` with `required`, `additionalProperties`
 * (`false`, `true` or a schema) and `$ref` to `#/components/schemas/<name>`, resolved in
 * `Components`. Annotation and validation keywords (description, format, pattern, minimum...)
 * do not change the type. A schema without `type` (any JSON value) is `unknown`.
 *
 * @example
 * const Crontab = {
 *   type: 'object',
 *   properties: { name: { type: 'string' }, lastFiredAt: { type: ['string', 'null'] } },
 *   required: ['name'],
 *   additionalProperties: false,
 * } as const;
 * type Crontab = FromJsonSchema<typeof Crontab>; // { name: string; lastFiredAt?: string | null }
 */
export type FromJsonSchema<S, Components = Record<never, never>> = S extends {
  readonly $ref: `#/components/schemas/${infer Name}`;
}
  ? Name extends keyof Components
    ? FromJsonSchema<Components[Name], Components>
    : unknown
  : S extends { readonly const: infer Value }
    ? Value
    : S extends { readonly enum: ReadonlyArray<infer Value> }
      ? Value
      : S extends { readonly oneOf: ReadonlyArray<infer Branch> }
        ? Branch extends unknown
          ? FromJsonSchema<Branch, Components>
          : never
        : S extends { readonly type: infer TypeName }
          ? ValueOfType<TypeName extends ReadonlyArray<infer One> ? One : TypeName, S, Components>
          : unknown;

/** One `type` name (distributes over a union of names). */
type ValueOfType<TypeName, S, Components> = TypeName extends 'string'
  ? string
  : TypeName extends 'integer' | 'number'
    ? number
    : TypeName extends 'boolean'
      ? boolean
      : TypeName extends 'null'
        ? null
        : TypeName extends 'array'
          ? S extends { readonly items: infer Items }
            ? Array<FromJsonSchema<Items, Components>>
            : unknown[]
          : TypeName extends 'object'
            ? ObjectValue<S, Components>
            : never;

type ObjectValue<S, Components> = S extends { readonly properties: infer Properties }
  ? Flatten<
      DeclaredProperties<
        Properties,
        S extends { readonly required: ReadonlyArray<infer Required> } ? Required : never,
        Components
      > &
        OtherProperties<S, Components>
    >
  : OtherProperties<S, Components>;

type DeclaredProperties<Properties, Required, Components> = {
  -readonly [K in keyof Properties & Required]: FromJsonSchema<Properties[K], Components>;
} & {
  -readonly [K in Exclude<keyof Properties, Required>]?: FromJsonSchema<Properties[K], Components>;
};

/** Keys beyond `properties`: none (`additionalProperties: false`), any, or values of one schema. */
type OtherProperties<S, Components> = S extends { readonly additionalProperties: infer Additional }
  ? Additional extends false
    ? unknown
    : Additional extends true
      ? Record<string, unknown>
      : Record<string, FromJsonSchema<Additional, Components>>
  : Record<string, unknown>;

/** One object type instead of an intersection (readable in editors and error messages). */
type Flatten<T> = { [K in keyof T]: T[K] };
