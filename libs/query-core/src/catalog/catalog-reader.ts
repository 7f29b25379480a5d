import { ConfigError, type Database } from '@fw/core';
import { createHash } from 'node:crypto';
import { CompiledQuery } from 'kysely';

/** An enabled row of `fw_query_mapper_source`. */
export interface CatalogMapperRow {
  namespace: string;
  mapperXml: string;
  checksum: string;
}

/** An enabled row of `fw_query_definition_source`. */
export interface CatalogDefinitionRow {
  scopeKey: string;
  queryName: string;
  definitionJson: string;
  checksum: string;
}

export interface CatalogContents {
  mappers: CatalogMapperRow[];
  definitions: CatalogDefinitionRow[];
}

/** Lowercase hex SHA-256 of a text's UTF-8 bytes: what `checksum` must hold. */
export function catalogChecksum(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `fw_query_mapper_source[namespace=books]`: how messages name a mapper row. */
export function mapperRowName(namespace: string): string {
  return `fw_query_mapper_source[namespace=${JSON.stringify(namespace)}]`;
}

/** `fw_query_definition_source[scope_key=t1, query_name=books]`: how messages name a definition row. */
export function definitionRowName(scopeKey: string, queryName: string): string {
  return `fw_query_definition_source[scope_key=${JSON.stringify(scopeKey)}, query_name=${JSON.stringify(queryName)}]`;
}

/**
 * Reads the enabled catalog rows once and verifies every checksum (case-insensitive hex compare,
 * surrounding whitespace ignored).
 *
 * @param dataSourceName the `dataSources` key, for messages
 * @throws ConfigError when the datasource cannot be reached, a table is missing (naming the
 *   migrate command), or a checksum does not match (naming the row).
 *
 * @example
 * const { mappers, definitions } = await readCatalog(catalogDatabase, 'catalog');
 */
export async function readCatalog(database: Database, dataSourceName: string): Promise<CatalogContents> {
  const where = `query.catalog.jdbc.dataSource '${dataSourceName}' (${database.displayUrl})`;
  type Raw = Record<string, unknown>;
  let mapperRows: Raw[];
  let definitionRows: Raw[];
  try {
    const tables = await database.db.executeQuery<Raw>(
      CompiledQuery.raw(
        `select to_regclass('fw_query_mapper_source')::text as mappers, to_regclass('fw_query_definition_source')::text as definitions`,
        [],
      ),
    );
    const found = tables.rows[0] ?? {};
    for (const [key, table] of [
      ['mappers', 'fw_query_mapper_source'],
      ['definitions', 'fw_query_definition_source'],
    ] as const) {
      if (found[key] === null || found[key] === undefined) {
        throw new ConfigError(
          `${where}: table ${table} does not exist; apply the schema with npx fw-migrate --database-url <url> (package @fw/migrate; npm run migrate -- --database-url <url> in the fw checkout)`,
        );
      }
    }
    mapperRows = (
      await database.db.executeQuery<Raw>(
        CompiledQuery.raw(
          'select namespace, mapper_xml, checksum from fw_query_mapper_source where enabled order by namespace',
          [],
        ),
      )
    ).rows;
    definitionRows = (
      await database.db.executeQuery<Raw>(
        CompiledQuery.raw(
          'select scope_key, query_name, definition_json, checksum from fw_query_definition_source where enabled order by scope_key, query_name',
          [],
        ),
      )
    ).rows;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${where} is unavailable: ${(err as Error).message}`, { cause: err });
  }
  const mappers = mapperRows.map((r) => ({
    namespace: String(r.namespace),
    mapperXml: String(r.mapper_xml),
    checksum: String(r.checksum),
  }));
  const definitions = definitionRows.map((r) => ({
    scopeKey: String(r.scope_key),
    queryName: String(r.query_name),
    definitionJson: String(r.definition_json),
    checksum: String(r.checksum),
  }));
  const verify = (text: string, checksum: string, row: string) => {
    const expected = catalogChecksum(text);
    if (checksum.trim().toLowerCase() !== expected) {
      throw new ConfigError(
        `${row}: checksum mismatch (stored ${checksum.trim() || '<empty>'}, computed ${expected}: the lowercase hex SHA-256 of the text)`,
      );
    }
  };
  for (const m of mappers) verify(m.mapperXml, m.checksum, mapperRowName(m.namespace));
  for (const d of definitions) verify(d.definitionJson, d.checksum, definitionRowName(d.scopeKey, d.queryName));
  return { mappers, definitions };
}
