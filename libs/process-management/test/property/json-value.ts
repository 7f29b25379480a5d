/** A JSON value, as the property tests generate them. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
