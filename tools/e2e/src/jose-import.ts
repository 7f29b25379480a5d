/**
 * `jose` for the suites that sign tokens. It is an ECMAScript module only, and the suites are
 * compiled to CommonJS, so it is loaded with a native `import()` the compiler does not rewrite.
 *
 * The function doing that import is compiled from a source unique to each load: V8 reuses the code
 * compiled from an identical source across the test files' vm contexts, and with it the dynamic
 * import hook of the file that compiled it first. A later file calling it then fails with "Test
 * environment has been torn down" (it did, once `roles` and `process-removal` ran before
 * `single-sign-on` in one worker).
 *
 * @example
 * const jose = await loadJose();
 * const { privateKey } = await jose.generateKeyPair('RS256');
 */
import { randomUUID } from 'node:crypto';

export type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });

/** The `jose` module, loaded natively in the calling test file's context. */
export function loadJose(): Promise<Jose> {
  const nativeImport = new Function('specifier', `return import(specifier); // ${randomUUID()}`) as (
    specifier: string,
  ) => Promise<Jose>;
  return nativeImport('jose');
}
