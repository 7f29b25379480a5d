/**
 * The service registry service: a host may run it to keep the catalog of every
 * host's services. `POST /serviceregistry` registers (or refreshes) a host — `{ baseUrl, services }`
 * — and `GET /serviceregistry` lists the catalog. Hosts register through
 * {@link makeRegistryDelegate}, which also re-registers periodically, so a restarted registry
 * fills up again by itself; an entry not refreshed within `expireMillis` is dropped.
 *
 * @example
 * const registryService = makeServiceRegistryService();
 * const registry = makeServiceRegistry({ host, services: [registryService] });
 */
import {
  defineService,
  SERVICE_KINDS,
  type ServiceDefinition,
  type ServiceKind,
} from '../definition/service-definition';

/** One registered host. */
export interface CatalogEntry {
  baseUrl: string;
  host?: { name: string; version: string };
  services: Array<{ name: string; version: string; kind: ServiceKind; description: string; healthCheck: boolean }>;
  registeredAt: string;
  lastSeen: string;
}

export interface ServiceRegistryServiceOptions {
  /** Drop a host not refreshed for this long (default 90 000 ms: three missed refreshes of the delegate's default). */
  expireMillis?: number;
  clock?: () => Date;
}

const SERVICE_ENTRY = {
  type: 'object',
  required: ['name', 'version'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_.-]{0,127}$' },
    version: { type: 'string', minLength: 1, maxLength: 64 },
    kind: { enum: SERVICE_KINDS },
    description: { type: 'string', maxLength: 2000 },
    healthCheck: { type: 'boolean' },
  },
};

export const REGISTER_INPUT = {
  type: 'object',
  required: ['baseUrl', 'services'],
  additionalProperties: false,
  properties: {
    baseUrl: { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 2000 },
    host: {
      type: 'object',
      required: ['name', 'version'],
      properties: { name: { type: 'string' }, version: { type: 'string' } },
    },
    services: { type: 'array', maxItems: 1000, items: SERVICE_ENTRY },
  },
};

export function makeServiceRegistryService(options: ServiceRegistryServiceOptions = {}): ServiceDefinition {
  const catalog = new Map<string, CatalogEntry>();
  const clock = options.clock ?? (() => new Date());
  const expireMillis = options.expireMillis ?? 90_000;
  const live = (): CatalogEntry[] => {
    const now = clock().getTime();
    for (const [url, entry] of catalog) if (now - Date.parse(entry.lastSeen) > expireMillis) catalog.delete(url);
    return [...catalog.values()].sort((a, b) => a.baseUrl.localeCompare(b.baseUrl));
  };
  return defineService({
    name: 'serviceregistry',
    version: '1.0.0',
    kind: 'http',
    description: 'Catalog of the services of every registered host',
    details: () => ({ hosts: live().length, expireMillis }),
    operations: [
      {
        name: 'register',
        description: 'Registers or refreshes a host and its services',
        method: 'POST',
        path: '/serviceregistry',
        input: REGISTER_INPUT,
        handler: async (input: {
          baseUrl: string;
          host?: { name: string; version: string };
          services: Array<Partial<CatalogEntry['services'][number]> & { name: string; version: string }>;
        }) => {
          const now = clock().toISOString();
          const baseUrl = input.baseUrl.replace(/\/+$/, '');
          const entry: CatalogEntry = {
            baseUrl,
            ...(input.host ? { host: { name: input.host.name, version: input.host.version } } : {}),
            services: input.services.map((s) => ({
              name: s.name,
              version: s.version,
              kind: s.kind ?? 'http',
              description: s.description ?? '',
              healthCheck: s.healthCheck ?? false,
            })),
            registeredAt: catalog.get(baseUrl)?.registeredAt ?? now,
            lastSeen: now,
          };
          catalog.set(baseUrl, entry);
          return entry;
        },
      },
      {
        name: 'list',
        description: 'The catalog of every registered host',
        method: 'GET',
        path: '/serviceregistry',
        handler: async () => live(),
      },
    ],
  });
}
