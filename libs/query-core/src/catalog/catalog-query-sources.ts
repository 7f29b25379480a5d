/**
 * The query sources of the catalog database (`query.catalog.jdbc`), read once at startup and
 * merged over the packaged ones: a catalog mapper replaces the packaged mapper with the same
 * namespace; a catalog definition replaces the packaged definition with the same name in the same
 * scope (base scope = `baseScope`, else the tenant id).
 */
import { ConfigError, type Database, type DatabaseOptions, type Logger } from '@fw/core';
import type { DataSourceConfig } from '../config/query-config-types';
import { parseDefinitionObject } from '../definition/query-definition-parser';
import type { SourcedDefinition } from '../definition/query-definition-types';
import type { MapperRegistry } from '../mapper/mapper-registry';
import { databaseOptions } from '../tenant/tenant-router';
import {
  definitionRowName,
  mapperRowName,
  readCatalog,
  type CatalogContents,
  type CatalogDefinitionRow,
  type CatalogMapperRow,
} from './catalog-reader';
import { definitionScopeKey, parseMapperChecked, type MapperParser } from './query-source-parsing';

/** Where the catalog is: the data source named by `query.catalog.jdbc.dataSource`. */
export interface CatalogLocation {
  dataSource: string | undefined;
  dataSources: Record<string, DataSourceConfig>;
  baseDir: string;
  databaseFactory: (options: DatabaseOptions) => Database;
}

/** Opens the catalog's data source, reads the enabled rows and closes it again. */
export async function readCatalogSources(location: CatalogLocation): Promise<CatalogContents> {
  const { dataSource: name, dataSources } = location;
  if (!name)
    throw new ConfigError(
      'query.catalog.jdbc.dataSource is required when query.catalog.jdbc.enabled is true (name an entry of dataSources)',
    );
  const entry = dataSources[name];
  if (!entry || !Object.hasOwn(dataSources, name)) {
    throw new ConfigError(
      `query.catalog.jdbc.dataSource '${name}' is not an entry of dataSources (configured: ${Object.keys(dataSources).join(', ') || 'none'})`,
    );
  }
  let database: Database;
  try {
    database = location.databaseFactory(databaseOptions(entry, location.baseDir, 'fw-query-catalog'));
  } catch (err) {
    throw new ConfigError(`dataSources.${name}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return await readCatalog(database, name);
  } finally {
    await database.close().catch(() => undefined);
  }
}

/** Parses the catalog's mappers into `mappers` (namespaces unique ignoring case and spaces). */
export async function mergeCatalogMappers(
  rows: readonly CatalogMapperRow[],
  mappers: MapperRegistry,
  parse: MapperParser,
  logger: Pick<Logger, 'info'>,
): Promise<void> {
  const seen = new Map<string, string>();
  for (const row of rows) {
    const normalized = row.namespace.trim().toLowerCase();
    const other = seen.get(normalized);
    if (other !== undefined) {
      throw new ConfigError(
        `${mapperRowName(row.namespace)}: duplicate enabled mapper namespace (also ${mapperRowName(other)}); namespaces must be unique ignoring case and spaces`,
      );
    }
    seen.set(normalized, row.namespace);
  }
  for (const row of rows) {
    const source = mapperRowName(row.namespace);
    const document = await parseMapperChecked(parse, row.mapperXml, source);
    if (document.namespace !== row.namespace) {
      throw new ConfigError(
        `${source}: namespace column '${row.namespace}' does not match the mapper's namespace attribute '${document.namespace}'`,
      );
    }
    const replaced = mappers.replaceNamespace(document);
    if (replaced)
      logger.info({ namespace: row.namespace, replaced: replaced.source }, 'catalog mapper replaces packaged mapper');
  }
}

/** Parses the catalog's definitions into `definitions` (keyed by {@link definitionScopeKey}). */
export function mergeCatalogDefinitions(
  rows: readonly CatalogDefinitionRow[],
  definitions: Map<string, SourcedDefinition>,
  baseScope: string,
  logger: Pick<Logger, 'info'>,
): void {
  for (const row of rows) {
    const source = definitionRowName(row.scopeKey, row.queryName);
    const definition = parseDefinitionObject(row.definitionJson, source);
    if (definition.name !== row.queryName) {
      throw new ConfigError(
        `${source}: query_name '${row.queryName}' does not match the definition's name '${definition.name}'`,
      );
    }
    const isBase = row.scopeKey === baseScope;
    if (definition.tenantId !== undefined && (isBase || definition.tenantId !== row.scopeKey)) {
      const expected = isBase ? 'no tenantId (base scope)' : `tenantId '${row.scopeKey}'`;
      throw new ConfigError(
        `${source}: definition tenantId '${definition.tenantId}' does not match scope_key '${row.scopeKey}' (expected ${expected})`,
      );
    }
    const merged = isBase ? { ...definition, tenantId: undefined } : { ...definition, tenantId: row.scopeKey };
    if (merged.tenantId === undefined) delete merged.tenantId;
    const key = definitionScopeKey(merged.tenantId, merged.name);
    const replaced = definitions.get(key);
    if (replaced)
      logger.info(
        { query: merged.name, scope: row.scopeKey, replaced: replaced.source },
        'catalog definition replaces packaged definition',
      );
    definitions.set(key, { definition: merged, source });
  }
}
