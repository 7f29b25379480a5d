/** The instrumentations a host can turn on, by their name in `OTEL_NODE_ENABLED_INSTRUMENTATIONS`. */
export const SUPPORTED_INSTRUMENTATIONS = ['pg'] as const;

/** One of {@link SUPPORTED_INSTRUMENTATIONS}: `pg` is node-postgres, through `@opentelemetry/instrumentation-pg`. */
export type InstrumentationName = (typeof SUPPORTED_INSTRUMENTATIONS)[number];

/** The variable the OpenTelemetry Node auto-instrumentations read, with the same format. */
export const ENABLED_INSTRUMENTATIONS_VARIABLE = 'OTEL_NODE_ENABLED_INSTRUMENTATIONS';

function isSupported(name: string): name is InstrumentationName {
  return (SUPPORTED_INSTRUMENTATIONS as readonly string[]).includes(name);
}

/**
 * The instrumentations `OTEL_NODE_ENABLED_INSTRUMENTATIONS` turns on: comma-separated names as the
 * OpenTelemetry Node auto-instrumentations take them (`pg`, not `@opentelemetry/instrumentation-pg`),
 * blanks around them ignored, each once. Unset or empty: none, so nothing beyond fw's own spans is
 * recorded unless asked for.
 *
 * @throws RangeError naming the unknown names and the supported ones, e.g.
 *   `OTEL_NODE_ENABLED_INSTRUMENTATIONS names "http", which fw hosts cannot instrument (supported: pg)`.
 * @example
 * readEnabledInstrumentations({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: ' pg ' }); // ['pg']
 * readEnabledInstrumentations({}); // []
 */
export function readEnabledInstrumentations(env: NodeJS.ProcessEnv = process.env): InstrumentationName[] {
  const names = (env[ENABLED_INSTRUMENTATIONS_VARIABLE] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !isSupported(name));
  if (unknown.length > 0)
    throw new RangeError(
      `${ENABLED_INSTRUMENTATIONS_VARIABLE} names ${unknown.map((name) => JSON.stringify(name)).join(', ')}, ` +
        `which fw hosts cannot instrument (supported: ${SUPPORTED_INSTRUMENTATIONS.join(', ')})`,
    );
  return [...new Set(names.filter(isSupported))];
}
