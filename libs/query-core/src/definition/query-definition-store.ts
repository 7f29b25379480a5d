import { ConfigError } from '@fw/core';
import { type QueryDefinition, type SourcedDefinition } from './query-definition-types';

/**
 * Base definitions and tenant overrides. A tenant sees its own definition of a name when it has
 * one, else the base definition.
 *
 * @example
 * const store = makeQueryDefinitionStore([{ definition: base, source: 'a.json' }, { definition: t1Override, source: 'b.json' }]);
 * store.lookup('books', 't1'); // the override
 * store.lookup('books', 't2'); // the base
 */
export interface QueryDefinitionStore {
  lookup(name: string, tenantId: string): QueryDefinition | undefined;
  /** Every definition a tenant sees (its overrides replace base definitions), sorted by name. */
  listFor(tenantId: string): QueryDefinition[];
  /** Every stored definition, base and overrides. */
  all(): QueryDefinition[];
}

/**
 * Builds a store. Two definitions with the same name in the same scope (base, or one tenant)
 * are a configuration error naming both sources.
 */
export function makeQueryDefinitionStore(entries: readonly SourcedDefinition[]): QueryDefinitionStore {
  const base = new Map<string, SourcedDefinition>();
  const tenants = new Map<string, Map<string, SourcedDefinition>>();
  for (const entry of entries) {
    const tenantId = entry.definition.tenantId;
    let scope = base;
    if (tenantId !== undefined) {
      scope = tenants.get(tenantId) ?? new Map<string, SourcedDefinition>();
      tenants.set(tenantId, scope);
    }
    const existing = scope.get(entry.definition.name);
    if (existing) {
      const scopeText = tenantId === undefined ? 'base scope' : `tenant '${tenantId}'`;
      throw new ConfigError(
        `Query definition '${entry.definition.name}' is defined twice in the ${scopeText}: ${existing.source} and ${entry.source}`,
      );
    }
    scope.set(entry.definition.name, entry);
  }
  return {
    lookup(name, tenantId) {
      return (tenants.get(tenantId)?.get(name) ?? base.get(name))?.definition;
    },
    listFor(tenantId) {
      const out = new Map<string, QueryDefinition>();
      for (const [name, e] of base) out.set(name, e.definition);
      for (const [name, e] of tenants.get(tenantId) ?? []) out.set(name, e.definition);
      return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
    all() {
      return [...base.values(), ...[...tenants.values()].flatMap((m) => [...m.values()])].map((e) => e.definition);
    },
  };
}
