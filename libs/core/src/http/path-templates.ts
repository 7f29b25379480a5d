/**
 * OpenAPI path templates (`/crontabs/{id}`) matched against request paths the way express routes
 * match them (case-insensitive, an optional trailing slash), and the methods a path takes: what
 * a 405 answer names in `Allow` (other methods on a known path answer 405).
 *
 * @example
 * const templates = pathTemplates([{ method: 'get', path: '/definitions/{name}' }, { method: 'post', path: '/definitions/refresh' }]);
 * allowedMethods(templates, '/definitions/refresh'); // ['GET', 'HEAD', 'POST']
 */

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface PathTemplate {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/crontabs/{id}` → a case-insensitive pattern with an optional trailing slash. */
export function templatePattern(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`, 'i');
}

/** One template per path, with the methods of its operations (upper case). */
export function pathTemplates(operations: ReadonlyArray<{ method: string; path: string }>): PathTemplate[] {
  const byPath = new Map<string, Set<string>>();
  for (const op of operations) {
    const methods = byPath.get(op.path) ?? new Set<string>();
    methods.add(op.method.toUpperCase());
    byPath.set(op.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({ pattern: templatePattern(path), methods }));
}

/**
 * The methods the templates matching `path` accept, HEAD wherever GET is; empty when no template
 * matches. A path can match several templates (`/definitions/refresh` is also
 * `/definitions/{name}`): their methods are joined.
 */
export function allowedMethods(templates: readonly PathTemplate[], path: string): string[] {
  const methods = new Set<string>();
  for (const t of templates) if (t.pattern.test(path)) for (const m of t.methods) methods.add(m);
  if (methods.has('GET')) methods.add('HEAD');
  return ORDER.filter((m) => methods.has(m));
}
