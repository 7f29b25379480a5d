import { ConfigError, Database, DatabaseOptions, isConfigError, Logger } from '@fw/core';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { resolvePatterns } from '../config/file-patterns';
import { DataSourceConfig, QUERY_CONFIG_DEFAULTS, QueryConfig } from '../config/query-config-types';
import { parseDefinitionFile, parseDefinitionObject } from '../definition/query-definition-parser';
import { SourcedDefinition } from '../definition/query-definition-types';
import { parseMapperXml, ParsedMapperDocument } from '../mapper/mapper-parser';
import { MapperRegistry } from '../mapper/mapper-registry';
import { databaseOptions } from '../tenant/tenant-router';
import { definitionRowName, mapperRowName, readCatalog } from './catalog-reader';

/** Parses one mapper XML text (`source` names it in errors). */
export type MapperParser = (xml: string, source: string) => Promise<ParsedMapperDocument>;

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

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${file}: cannot be read: ${(err as Error).message}`);
  }
}

async function parseMapperChecked(parse: MapperParser, xml: string, source: string): Promise<ParsedMapperDocument> {
  try {
    return await parse(xml, source);
  } catch (err) {
    if (isConfigError(err) && err.message.includes(source)) throw err;
    throw new ConfigError(`${source}: invalid mapper XML: ${(err as Error).message}`, { cause: err });
  }
}

function relative(baseDir: string, file: string): string {
  const rel = path.relative(baseDir, file);
  return rel.startsWith('..') ? file : rel;
}

/**
 * Loads packaged mapper and definition files and, when `query.catalog.jdbc.enabled`, the catalog
 * (once), then merges them:
 * - a catalog mapper replaces the packaged mapper with the same namespace;
 * - a catalog definition replaces the packaged definition with the same name in the same scope
 *   (base scope = `baseScope`, else the tenant id); unrelated packaged entries stay.
 *
 * @throws ConfigError for every startup failure (bad file, row or setting), naming the file, row or setting.
 */
export async function loadQuerySources(options: QuerySourcesOptions): Promise<QuerySources> {
  const { config, baseDir } = options;
  const catalog = config.catalog?.jdbc;
  const catalogEnabled = catalog?.enabled === true;
  const baseScope = catalog?.baseScope ?? QUERY_CONFIG_DEFAULTS.baseScope;
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
  const mappers = new MapperRegistry();
  for (const file of await resolvePatterns(config.mapperFiles, baseDir, 'query.mapperFiles')) {
    const source = relative(baseDir, file);
    mappers.add(await parseMapperChecked(parse, await readText(file), source));
  }
  const definitions = new Map<string, SourcedDefinition>();
  const scopeKey = (tenantId: string | undefined, name: string) => JSON.stringify([tenantId ?? null, name]);
  for (const file of await resolvePatterns(config.definitionFiles, baseDir, 'query.definitionFiles')) {
    const source = relative(baseDir, file);
    for (const definition of parseDefinitionFile(await readText(file), source)) {
      const key = scopeKey(definition.tenantId, definition.name);
      const existing = definitions.get(key);
      if (existing) {
        const scope = definition.tenantId === undefined ? 'the base scope' : `tenant '${definition.tenantId}'`;
        throw new ConfigError(
          `Query definition '${definition.name}' is defined twice in ${scope}: ${existing.source} and ${source}`,
        );
      }
      definitions.set(key, { definition, source });
    }
  }

  if (catalogEnabled) {
    const name = catalog?.dataSource;
    if (!name)
      throw new ConfigError(
        'query.catalog.jdbc.dataSource is required when query.catalog.jdbc.enabled is true (name an entry of dataSources)',
      );
    const entry = options.dataSources[name];
    if (!entry || !Object.hasOwn(options.dataSources, name)) {
      throw new ConfigError(
        `query.catalog.jdbc.dataSource '${name}' is not an entry of dataSources (configured: ${Object.keys(options.dataSources).join(', ') || 'none'})`,
      );
    }
    let database: Database;
    try {
      database = options.databaseFactory(databaseOptions(entry, baseDir, 'fw-query-catalog'));
    } catch (err) {
      throw new ConfigError(`dataSources.${name}: ${(err as Error).message}`, { cause: err });
    }
    let contents;
    try {
      contents = await readCatalog(database, name);
    } finally {
      await database.close().catch(() => undefined);
    }
    const seen = new Map<string, string>();
    for (const row of contents.mappers) {
      const normalized = row.namespace.trim().toLowerCase();
      const other = seen.get(normalized);
      if (other !== undefined) {
        throw new ConfigError(
          `${mapperRowName(row.namespace)}: duplicate enabled mapper namespace (also ${mapperRowName(other)}); namespaces must be unique ignoring case and spaces`,
        );
      }
      seen.set(normalized, row.namespace);
    }
    for (const row of contents.mappers) {
      const source = mapperRowName(row.namespace);
      const document = await parseMapperChecked(parse, row.mapperXml, source);
      if (document.namespace !== row.namespace) {
        throw new ConfigError(
          `${source}: namespace column '${row.namespace}' does not match the mapper's namespace attribute '${document.namespace}'`,
        );
      }
      const replaced = mappers.replaceNamespace(document);
      if (replaced)
        options.logger.info(
          { namespace: row.namespace, replaced: replaced.source },
          'catalog mapper replaces packaged mapper',
        );
    }
    for (const row of contents.definitions) {
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
      const key = scopeKey(merged.tenantId, merged.name);
      const replaced = definitions.get(key);
      if (replaced)
        options.logger.info(
          { query: merged.name, scope: row.scopeKey, replaced: replaced.source },
          'catalog definition replaces packaged definition',
        );
      definitions.set(key, { definition: merged, source });
    }
  }
  mappers.link();
  return { mappers, definitions: [...definitions.values()] };
}
