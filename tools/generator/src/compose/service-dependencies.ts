/**
 * The `serviceDependencies` document of minimonolith: the service packages a host composes, as a
 * JSON array of `"<package>#<export>"` strings (`"@example/shop-service#shopServices"`). The export
 * is a function the host calls with no argument at start; it answers a service definition, a list
 * of them, or a promise of either. Checked during input validation so a typo never renders code
 * that cannot compile.
 */
import { GeneratorError, GeneratorErrorCodes } from '../errors';
import { pascalCase } from '../render/names';

export interface ServiceDependency {
  /** The npm package name (`@example/shop-service`). */
  package: string;
  /** The function it exports (`shopServices`). */
  exportName: string;
  /** A local name for the import, unique in the generated file (`dependency0ShopServices`). */
  alias: string;
}

const PACKAGE = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** @throws GeneratorError SPEC_INVALID naming each bad entry. */
export function parseServiceDependencies(raw: unknown, source: string): ServiceDependency[] {
  const list = raw === '' || raw === null || raw === undefined ? [] : raw;
  if (!Array.isArray(list)) {
    throw new GeneratorError(GeneratorErrorCodes.SPEC_INVALID, `${source} is not valid; nothing was written`, ['must be a JSON array of "<package>#<export>" strings']);
  }
  const problems: string[] = [];
  const out: ServiceDependency[] = [];
  const seen = new Set<string>();
  list.forEach((entry: unknown, i) => {
    const [pkg, exportName, ...rest] = typeof entry === 'string' ? entry.split('#') : [];
    if (typeof entry !== 'string' || rest.length > 0 || pkg === undefined || exportName === undefined) {
      problems.push(`[${i}]: ${JSON.stringify(entry)} is not "<package>#<export>" (like "@example/shop-service#shopServices")`);
      return;
    }
    if (!PACKAGE.test(pkg)) problems.push(`[${i}]: '${pkg}' is not an npm package name`);
    else if (!IDENTIFIER.test(exportName)) problems.push(`[${i}]: '${exportName}' is not an exported function name`);
    else if (seen.has(entry)) problems.push(`[${i}]: '${entry}' is listed twice`);
    else out.push({ package: pkg, exportName, alias: `dependency${i}${pascalCase(exportName)}` });
    seen.add(entry);
  });
  if (problems.length > 0) throw new GeneratorError(GeneratorErrorCodes.SPEC_INVALID, `${source} is not valid; nothing was written`, problems);
  return out;
}

/** What the templates see: `dependencies` (one per entry), `dependencyPackages` (unique) and `hasDependencies`. */
export function serviceDependenciesView(parsed: ServiceDependency[]): Record<string, unknown> {
  const packages = [...new Set(parsed.map((d) => d.package))].sort();
  return {
    dependencies: parsed,
    dependencyPackages: packages.map((name, i) => ({ name, last: i === packages.length - 1 })),
    hasDependencies: parsed.length > 0,
  };
}
