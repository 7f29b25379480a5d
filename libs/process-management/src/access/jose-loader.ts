/**
 * Loads `jose` (JWT and JWKS), which ships as an ECMAScript module only, from this CommonJS
 * package. A plain `import()` would be rewritten to `require()` by some TypeScript set-ups (the
 * test transform among them), and `require` of an ES module is not available everywhere this
 * package runs; an `import()` the compiler cannot see loads it the same way in every one.
 */
import { randomUUID } from 'node:crypto';

export type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });

// Built once per instance of this module: the function only performs a native dynamic import of
// its argument. Its source ends with a random comment because V8 reuses code compiled from an
// identical source, and with it the dynamic-import hook of the context that compiled it first:
// where one process holds several module registries (a test runner's files, each in a context of
// its own), a later registry's import would otherwise go through an earlier, torn-down context.
const nativeImport = new Function('specifier', `return import(specifier); // ${randomUUID()}`) as (
  specifier: string,
) => Promise<Jose>;

let loading: Promise<Jose> | undefined;

/**
 * `jose`, loaded on first use and kept. A load that failed is not kept: the next call loads again,
 * so one failed import (a module loader busy elsewhere) does not refuse every token afterwards.
 */
export function loadJose(): Promise<Jose> {
  loading ??= nativeImport('jose').catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}
