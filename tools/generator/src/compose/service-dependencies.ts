/**
 * The `serviceDependencies` document of minimonolith: the service packages a host composes, as a
 * JSON array of `"<package>#<export>"` or `"<package>#<export>(<argumentExport>)"` strings
 * (`"@example/pricing#makePricingService"`, `"@example/shop-service#createShopServices(readSettings)"`).
 * The host calls the export at start — with no argument, or with what the package's own
 * `argumentExport()` answers (its settings from the environment) — and registers what comes back: a
 * service definition, a list of them, or `{ services, close? }`, or a promise of any of these.
 * An entry whose export is `queryModuleFiles` (`"@example/shop-queries-query#queryModuleFiles"`)
 * names a query module (a mapperQuery package) instead: a host with the query controller serves
 * its mapper and definitions and applies its migrations (see `queryModules` of the view).
 * Checked during input validation so a typo never renders code that cannot compile.
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
  /** The export whose answer is passed to `exportName` (`readSettings`), if any. */
  argumentExport?: string;
  argumentAlias?: string;
  /** True for a query module (`#queryModuleFiles`): its files are served, not its services registered. */
  queryModule?: boolean;
}

/** The export that marks an entry as a query module: it answers where the module's files are. */
export const QUERY_MODULE_EXPORT = 'queryModuleFiles';

const PACKAGE = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const ENTRY = /^([^#()\s]+)#([^#()\s]+)(?:\(([^#()\s]+)\))?$/;

/** @throws GeneratorError SPEC_INVALID naming each bad entry. */
export function parseServiceDependencies(raw: unknown, source: string): ServiceDependency[] {
  const list = raw === '' || raw === null || raw === undefined ? [] : raw;
  if (!Array.isArray(list)) {
    throw new GeneratorError(GeneratorErrorCodes.SPEC_INVALID, `${source} is not valid; nothing was written`, [
      'must be a JSON array of "<package>#<export>" strings',
    ]);
  }
  const problems: string[] = [];
  const out: ServiceDependency[] = [];
  const seen = new Set<string>();
  list.forEach((entry: unknown, i) => {
    const match = typeof entry === 'string' ? ENTRY.exec(entry) : null;
    if (typeof entry !== 'string' || !match) {
      problems.push(
        `[${i}]: ${JSON.stringify(entry)} is not "<package>#<export>" or "<package>#<export>(<argumentExport>)" (like "@example/shop-service#createShopServices(readSettings)")`,
      );
      return;
    }
    const [, pkg, exportName, argumentExport] = match;
    if (!PACKAGE.test(pkg)) problems.push(`[${i}]: '${pkg}' is not an npm package name`);
    else if (!IDENTIFIER.test(exportName) || (argumentExport !== undefined && !IDENTIFIER.test(argumentExport)))
      problems.push(`[${i}]: '${entry}' does not name exported functions`);
    else if (seen.has(entry)) problems.push(`[${i}]: '${entry}' is listed twice`);
    else if (exportName === QUERY_MODULE_EXPORT && argumentExport !== undefined)
      problems.push(`[${i}]: '${entry}': a query module's ${QUERY_MODULE_EXPORT}() takes no argument`);
    else if (exportName === QUERY_MODULE_EXPORT)
      out.push({ package: pkg, exportName, alias: `queryModule${i}Files`, queryModule: true });
    else {
      const alias = `dependency${i}${pascalCase(exportName)}`;
      out.push(
        argumentExport === undefined
          ? { package: pkg, exportName, alias }
          : {
              package: pkg,
              exportName,
              alias,
              argumentExport,
              argumentAlias: `dependency${i}${pascalCase(argumentExport)}`,
            },
      );
    }
    seen.add(entry);
  });
  if (problems.length > 0)
    throw new GeneratorError(GeneratorErrorCodes.SPEC_INVALID, `${source} is not valid; nothing was written`, problems);
  return out;
}

/**
 * What the templates see: `dependencies` and `hasDependencies` (the service packages),
 * `queryModules` and `hasQueryModules` (the query modules), `dependencyPackages` (every package, unique).
 */
export function serviceDependenciesView(parsed: ServiceDependency[]): Record<string, unknown> {
  const packages = [...new Set(parsed.map((d) => d.package))].sort();
  const services = parsed.filter((d) => !d.queryModule);
  const queryModules = parsed.filter((d) => d.queryModule);
  return {
    dependencies: services,
    dependencyPackages: packages.map((name, i) => ({ name, last: i === packages.length - 1 })),
    hasDependencies: services.length > 0,
    queryModules,
    hasQueryModules: queryModules.length > 0,
  };
}
