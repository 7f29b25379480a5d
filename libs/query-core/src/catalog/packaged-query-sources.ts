/**
 * The query sources packaged as files: mapper XML files (`query.mapperFiles`) and definition JSON
 * files (`query.definitionFiles`), glob patterns relative to the base directory. A definition
 * name may appear once per scope across all files.
 */
import { ConfigError } from '@fw/core';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { resolvePatterns } from '../config/file-patterns';
import type { QueryConfig } from '../config/query-config-types';
import { parseDefinitionFile } from '../definition/query-definition-parser';
import type { SourcedDefinition } from '../definition/query-definition-types';
import { MapperRegistry } from '../mapper/mapper-registry';
import { definitionScopeKey, parseMapperChecked, type MapperParser } from './query-source-parsing';

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${file}: cannot be read: ${(err as Error).message}`);
  }
}

function relative(baseDir: string, file: string): string {
  const rel = path.relative(baseDir, file);
  return rel.startsWith('..') ? file : rel;
}

/** The packaged mappers, not yet linked. */
export async function loadPackagedMappers(
  config: Pick<QueryConfig, 'mapperFiles'>,
  baseDir: string,
  parse: MapperParser,
): Promise<MapperRegistry> {
  const mappers = new MapperRegistry();
  for (const file of await resolvePatterns(config.mapperFiles, baseDir, 'query.mapperFiles')) {
    const source = relative(baseDir, file);
    mappers.add(await parseMapperChecked(parse, await readText(file), source));
  }
  return mappers;
}

/** The packaged definitions by {@link definitionScopeKey}; a name twice in one scope is a ConfigError. */
export async function loadPackagedDefinitions(
  config: Pick<QueryConfig, 'definitionFiles'>,
  baseDir: string,
): Promise<Map<string, SourcedDefinition>> {
  const definitions = new Map<string, SourcedDefinition>();
  for (const file of await resolvePatterns(config.definitionFiles, baseDir, 'query.definitionFiles')) {
    const source = relative(baseDir, file);
    for (const definition of parseDefinitionFile(await readText(file), source)) {
      const key = definitionScopeKey(definition.tenantId, definition.name);
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
  return definitions;
}
