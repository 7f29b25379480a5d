// The in-memory store: records live as long as the process. {{#jpa}}The tests of everything that is not
// about persistence (security, the client, MCP) run on it, since an embedded database per test
// process costs seconds; the host itself uses the database store.{{/jpa}}{{^jpa}}It is the store of this service
// (generated with jpa=n): good for a prototype and a service whose data is rebuilt elsewhere;
// regenerate with jpa=y (or write another {{servicePascal}}Repository) to keep records across restarts.{{/jpa}}
import { randomUUID } from 'node:crypto';
import type { Create{{servicePascal}}Request, {{servicePascal}}Entity } from '{{scope}}/{{serviceKebab}}-api';
import type { AdjustOutcome, {{servicePascal}}Repository } from './repository';

export function makeMemory{{servicePascal}}Repository(): {{servicePascal}}Repository {
  // One map per tenant, so a lookup can never cross tenants.
  const tenants = new Map<string, Map<string, {{servicePascal}}Entity>>();
  const recordsOf = (tenant: string): Map<string, {{servicePascal}}Entity> => {
    let records = tenants.get(tenant);
    if (records === undefined) {
      records = new Map();
      tenants.set(tenant, records);
    }
    return records;
  };
  return {
    async create(tenant, request: Create{{servicePascal}}Request) {
      const entity: {{servicePascal}}Entity = { id: randomUUID(), name: request.name, quantity: request.quantity ?? 0, createdAt: new Date().toISOString() };
      recordsOf(tenant).set(entity.id, entity);
      return { ...entity };
    },
    async get(tenant, id) {
      const found = tenants.get(tenant)?.get(id);
      return found === undefined ? undefined : { ...found };
    },
    // Synchronous between the read and the write, so two callers cannot interleave.
    async adjust(tenant, id, delta): Promise<AdjustOutcome> {
      const found = tenants.get(tenant)?.get(id);
      if (found === undefined) return { kind: 'absent' };
      const quantity = found.quantity + delta;
      if (quantity < 0) return { kind: 'refused', quantity: found.quantity };
      const previousQuantity = found.quantity;
      found.quantity = quantity;
      return { kind: 'adjusted', previousQuantity, quantity };
    },
    async ping() {},
    async close() {
      tenants.clear();
    },
  };
}
