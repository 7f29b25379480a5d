import { ConfigError } from '@fw/core';
import { describeSchemaErrors } from './ajv-messages';
import { makeAjv } from './ajv-factory';
import { type DataSourceConfig, type QueryConfig, type QueryHostConfigParts } from './query-config-types';

const dataSourceSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['jdbcUrl'],
  properties: {
    jdbcUrl: { type: 'string', minLength: 1 },
    username: { type: 'string' },
    password: { type: 'string' },
    maximumPoolSize: { type: 'integer', minimum: 1 },
    connectionTimeout: { type: 'integer', minimum: 1 },
    idleTimeout: { type: 'integer', minimum: 1 },
  },
} as const;

/** A tenant's datasource may also carry the default statement timeout of that tenant's queries. */
const tenantDataSourceSchema = {
  ...dataSourceSchema,
  properties: {
    ...dataSourceSchema.properties,
    timeoutMillis: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
  },
} as const;

const patternsSchema = {
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string', minLength: 1 } }, { type: 'null' }],
} as const;

const hostSchema = {
  type: 'object',
  required: ['query'],
  properties: {
    query: {
      type: 'object',
      additionalProperties: false,
      required: ['datasources'],
      properties: {
        defaultTenantId: { type: ['string', 'null'], minLength: 1 },
        datasources: { type: 'object', additionalProperties: tenantDataSourceSchema },
        mapperFiles: patternsSchema,
        definitionFiles: patternsSchema,
        pagination: {
          type: 'object',
          additionalProperties: false,
          properties: {
            countQueryEnabled: { type: 'boolean' },
            maxRowsInPage: { type: 'integer', minimum: 1 },
          },
        },
        catalog: {
          type: 'object',
          additionalProperties: false,
          properties: {
            jdbc: {
              type: 'object',
              additionalProperties: false,
              properties: {
                enabled: { type: 'boolean' },
                dataSource: { type: 'string', minLength: 1 },
                baseScope: { type: 'string', minLength: 1 },
              },
            },
          },
        },
        provider: { type: ['string', 'null'], minLength: 1 },
        mapperSettings: {
          type: 'object',
          additionalProperties: false,
          properties: {
            nullableOnForEach: { type: 'boolean' },
          },
        },
        cannedReports: {
          type: 'object',
          additionalProperties: false,
          properties: {
            store: { enum: ['memory', 'database'] },
            dataSource: { type: 'string', minLength: 1 },
          },
        },
      },
    },
    dataSources: { type: 'object', additionalProperties: dataSourceSchema },
  },
} as const;

const validate = makeAjv().compile(hostSchema);

/** Checks that a `…dataSource` setting, required because of `because`, names an entry of `dataSources`. */
function requireDataSourceEntry(
  setting: string,
  because: string,
  name: string | undefined,
  dataSources: Record<string, DataSourceConfig>,
  source: string,
): void {
  if (!name) throw new ConfigError(`${source}: ${setting} is required when ${because} (name an entry of dataSources)`);
  if (!Object.hasOwn(dataSources, name))
    throw new ConfigError(`${source}: ${setting} '${name}' is not an entry of dataSources`);
}

/**
 * Validates the `query` section and the top-level `dataSources` section of a query host config
 * (other top-level sections, such as `server`, are left to the host). Unknown keys inside those
 * two sections are rejected.
 *
 * @param data the whole parsed config (after `${ENV}` interpolation, e.g. `loadConfigFile(f).data`)
 * @param source file name used in messages
 * @throws ConfigError naming every bad key, e.g.
 *   `config.json: query.datasources.t1.maximumPoolSize must be an integer ≥ 1`
 *
 * @example
 * const { query, dataSources } = parseQueryConfig(loaded.data, loaded.file);
 * const service = await makeQueryService({ config: query, dataSources, baseDir: loaded.baseDir });
 */
export function parseQueryConfig(data: unknown, source = '<config>'): QueryHostConfigParts {
  if (!validate(data)) {
    const problems = describeSchemaErrors(validate.errors).filter((p) => p.keyword !== 'anyOf');
    const extra = validate.errors?.some((e) => e.keyword === 'anyOf')
      ? describeSchemaErrors(validate.errors.filter((e) => e.keyword === 'anyOf')).map((p) => ({
          ...p,
          message: `${p.path} must be a comma-separated string or an array of glob patterns`,
        }))
      : [];
    const lines = [...problems.filter((p) => !extra.some((x) => x.path === p.path)), ...extra].map((p) => p.message);
    throw new ConfigError(`${source}: ${Array.from(new Set(lines)).join('; ')}`);
  }
  const root = data as { query: QueryConfig; dataSources?: Record<string, DataSourceConfig> };
  const query = root.query;
  const dataSources = root.dataSources ?? {};
  const catalog = query.catalog?.jdbc;
  if (catalog?.enabled)
    requireDataSourceEntry(
      'query.catalog.jdbc.dataSource',
      'query.catalog.jdbc.enabled is true',
      catalog.dataSource,
      dataSources,
      source,
    );
  const cannedReports = query.cannedReports;
  if (cannedReports?.store === 'database') {
    requireDataSourceEntry(
      'query.cannedReports.dataSource',
      'query.cannedReports.store is "database"',
      cannedReports.dataSource,
      dataSources,
      source,
    );
  } else if (cannedReports?.dataSource !== undefined) {
    // Refused rather than ignored: without store "database" the reports would silently stay in memory.
    throw new ConfigError(
      `${source}: query.cannedReports.dataSource is only used when query.cannedReports.store is "database" (the default "memory" keeps reports in the process)`,
    );
  }
  return { query, dataSources };
}
