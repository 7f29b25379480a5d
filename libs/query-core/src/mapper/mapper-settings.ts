/**
 * The MyBatis settings (`<settings>` of `mybatis-config.xml`) that change how mapper XML compiles.
 * MyBatis reads them once for the whole configuration; here they are given to the parser, which
 * applies them to every statement and fragment of the file, including fragments of other
 * namespaces that a statement of the file includes.
 */

/** Settings a mapper is compiled with; every one is optional and defaults as in MyBatis. */
export interface MapperSettings {
  /**
   * Default of `<foreach nullable>` for elements that do not say: true makes a foreach over a
   * null collection render nothing instead of failing the request. MyBatis' `nullableOnForEach`;
   * default false. An explicit `nullable="true|false"` on the element wins.
   */
  readonly nullableOnForEach?: boolean;
}

/** The MyBatis defaults: what a mapper parsed without settings gets. */
export const DEFAULT_MAPPER_SETTINGS: MapperSettings = Object.freeze({ nullableOnForEach: false });
