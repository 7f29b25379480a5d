import { ConfigError, type Database, type DatabaseOptions, type Logger } from '@fw/core';
import { type DataSourceConfig, QUERY_CONFIG_DEFAULTS, type QueryConfig } from '../config/query-config-types';
import type { SourcedDefinition } from '../definition/query-definition-types';
import { parseMapperXml } from '../mapper/mapper-parser';
import type { MapperRegistry } from '../mapper/mapper-registry';
import { mergeCatalogDefinitions, mergeCatalogMappers, readCatalogSources } from './catalog-query-sources';
import { loadPackagedDefinitions, loadPackagedMappers } from './packaged-query-sources';
import type { MapperParser } from './query-source-parsing';

export type { MapperParser } from './query-source-parsing';

export interface QuerySourcesOptions {
  config: QueryConfig;
  dataSources: Record<string, DataSourceConfig>;
  baseDir: string;
  /** Default: the package's engine (`parseMapperXml` with `config.mapperSettings`). */
  parseMapper?: MapperParser;
  databaseFactory: (options: DatabaseOptions) => Database;
  logger: Logger;
}

/** Linked mappers and definitions after merging packaged files with the catalog. */
export interface QuerySources {
  mappers: MapperRegistry;
  definitions: SourcedDefinition[];
}

/**
 * Loads packaged mapper and definition files and, when `query.catalog.jdbc.enabled`, the catalog
 * (once), then merges them:
 * - a catalog mapper replaces the packaged mapper with the same namespace;
 * - a catalog definition replaces the packaged definition with the same name in the same scope
 *   (base scope = `baseScope`, else the tenant id); unrelated packaged entries stay.
 *
 * The packaged files are read by `packaged-query-sources.ts`, the catalog by `catalog-query-sources.ts`.
 *
 * @throws ConfigError for every startup failure (bad file, row or setting), naming the file, row or setting.
 */
export async function loadQuerySources(options: QuerySourcesOptions): Promise<QuerySources> {
  const { config, baseDir } = options;
  const catalog = config.catalog?.jdbc;
  const catalogEnabled = catalog?.enabled === true;
  const hasDefinitionFiles =
    config.definitionFiles !== undefined &&
    config.definitionFiles !== null &&
    String(config.definitionFiles).trim() !== '';
  if (!catalogEnabled && !hasDefinitionFiles) {
    throw new ConfigError(
      'query.definitionFiles is required when query.catalog.jdbc.enabled is false (give glob patterns of definition JSON files)',
    );
  }

  const parse =
    options.parseMapper ?? ((xml: string, source: string) => parseMapperXml(xml, source, config.mapperSettings));
  const mappers = await loadPackagedMappers(config, baseDir, parse);
  const definitions = await loadPackagedDefinitions(config, baseDir);
  if (catalogEnabled) {
    const contents = await readCatalogSources({
      dataSource: catalog?.dataSource,
      dataSources: options.dataSources,
      baseDir,
      databaseFactory: options.databaseFactory,
    });
    await mergeCatalogMappers(contents.mappers, mappers, parse, options.logger);
    const baseScope = catalog?.baseScope ?? QUERY_CONFIG_DEFAULTS.baseScope;
    mergeCatalogDefinitions(contents.definitions, definitions, baseScope, options.logger);
  }
  mappers.link();
  return { mappers, definitions: [...definitions.values()] };
}
