// The service packages {{monolith}} composes (the `dependencies` answer of fw-gen). Each package
// exports a function that answers its service definition(s); the host calls it once at start and
// registers what comes back. Add a package here (and to package.json) to host one more service.
import type { ServiceDefinition } from '@fw/service';
{{#dependencies}}
import { {{exportName}} as {{alias}}{{#argumentExport}}, {{argumentExport}} as {{argumentAlias}}{{/argumentExport}} } from '{{package}}';
{{/dependencies}}

/**
 * What a composed package's export may answer: a definition, a list, or a bundle that also owns
 * resources (a database) the host closes when it stops.
 */
export type Composed = ServiceDefinition | readonly ServiceDefinition[] | { services: readonly ServiceDefinition[]; close?: () => Promise<void> };

/** One composed package: its name (for messages) and the call that yields its services. */
export interface ServicePackage {
  package: string;
  load: () => Composed | Promise<Composed>;
}

export const SERVICE_PACKAGES: readonly ServicePackage[] = [
{{#dependencies}}
  { package: '{{package}}', load: () => {{alias}}({{#argumentAlias}}{{argumentAlias}}(){{/argumentAlias}}) },
{{/dependencies}}
];

export interface ComposedServices {
  services: ServiceDefinition[];
  /** Closes what the packages opened, last opened first. */
  close(): Promise<void>;
}

function isList(value: Composed): value is readonly ServiceDefinition[] {
  return Array.isArray(value);
}

function isBundle(value: Composed): value is { services: readonly ServiceDefinition[]; close?: () => Promise<void> } {
  return !Array.isArray(value) && 'services' in value && Array.isArray(value.services);
}

/** Every composed package's services, in the order listed; a failing package names itself. */
export async function loadComposedServices(packages: readonly ServicePackage[] = SERVICE_PACKAGES): Promise<ComposedServices> {
  const services: ServiceDefinition[] = [];
  const closers: Array<() => Promise<void>> = [];
  const close = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse()) await closer();
  };
  for (const entry of packages) {
    try {
      const loaded = await entry.load();
      if (isList(loaded)) services.push(...loaded);
      else if (isBundle(loaded)) {
        services.push(...loaded.services);
        if (loaded.close) closers.push(loaded.close);
      } else services.push(loaded);
    } catch (err) {
      await close();
      throw new Error(`service package ${entry.package} could not start: ${(err as Error).message}`);
    }
  }
  return { services, close };
}
