// The service packages {{monolith}} composes (the `dependencies` answer of fw-gen). Each package
// exports a function that answers its service definition(s); the host calls it once at start and
// registers what comes back. Add a package here (and to package.json) to host one more service.
import type { ServiceDefinition } from '@fw/service';
{{#dependencies}}
import { {{exportName}} as {{alias}} } from '{{package}}';
{{/dependencies}}

/** What a composed package's export may answer. */
type Composed = ServiceDefinition | readonly ServiceDefinition[];

/** One composed package: its name (for messages) and the call that yields its services. */
export interface ServicePackage {
  package: string;
  load: () => Composed | Promise<Composed>;
}

export const SERVICE_PACKAGES: readonly ServicePackage[] = [
{{#dependencies}}
  { package: '{{package}}', load: () => {{alias}}() },
{{/dependencies}}
];

function isServiceList(value: Composed): value is readonly ServiceDefinition[] {
  return Array.isArray(value);
}

/** Every composed package's services, in the order listed; a failing package names itself. */
export async function loadComposedServices(packages: readonly ServicePackage[] = SERVICE_PACKAGES): Promise<ServiceDefinition[]> {
  const out: ServiceDefinition[] = [];
  for (const entry of packages) {
    try {
      const loaded = await entry.load();
      out.push(...(isServiceList(loaded) ? loaded : [loaded]));
    } catch (err) {
      throw new Error(`service package ${entry.package} could not start: ${(err as Error).message}`);
    }
  }
  return out;
}
