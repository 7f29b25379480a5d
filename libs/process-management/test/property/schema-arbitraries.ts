/**
 * The workspace's schema-driven generator (`@fw/test-support`) bound to one document's component
 * schemas and to this suite's hostile values: values the schema admits, with (when `hostile` is
 * set) any node replaced now and then by a hostile value, unknown fields added and required ones
 * dropped. Hints by property name steer valid values towards records that exist (definition
 * names, crontab ids), so the 2xx paths are taken too.
 *
 * @example
 * const body = schemaArbitrary(ref('CrontabInput'), { components, hostile: true, hints: { timezone: fc.constant('UTC') } });
 */
import type fc from 'fast-check';
import { schemaArbitrary as documentSchemaArbitrary } from '@fw/test-support';
import type { JsonSchema } from '../../src';
import { hostileValue, unknownFieldName } from './hostile-values';
import type { JsonValue } from './json-value';

export type { JsonValue } from './json-value';

export interface ArbitraryOptions {
  components: Record<string, JsonSchema>;
  /** Mix hostile values, unknown fields and missing required fields into the valid ones. */
  hostile: boolean;
  /** Valid values to prefer for properties of that name. */
  hints?: Record<string, fc.Arbitrary<JsonValue>>;
}

/** Values of `schema`; with `hostile`, any node may be replaced by a hostile value. */
export function schemaArbitrary(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<JsonValue> {
  return documentSchemaArbitrary(schema, {
    document: { components: { schemas: options.components } },
    hints: options.hints,
    mixHints: true,
    hostile: options.hostile ? { value: hostileValue, unknownFieldName } : undefined,
  });
}
