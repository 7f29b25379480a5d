import { ConfigError } from '@fw/core';
import { describeSchemaErrors } from '../config/ajv-messages';
import { makeAjv } from '../config/ajv-factory';
import { type ColumnMetadata, COLUMN_TYPES, COUNT_MODES, type QueryDefinition } from './query-definition-types';

/** API field names: identifiers (they are also statement parameter names). */
export const FIELD_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';
/** `columnName`: an identifier or a dotted identifier (`b.published_at`); it goes into ORDER BY text. */
export const COLUMN_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$';

const columnSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: FIELD_NAME_PATTERN },
    columnName: { type: 'string', pattern: COLUMN_NAME_PATTERN, maxLength: 200 },
    columnType: { type: 'string', enum: [...COLUMN_TYPES] },
    filterable: { type: 'boolean' },
    likeQuery: { type: 'boolean' },
    containsQuery: { type: 'boolean' },
    betweenQuery: { type: 'boolean' },
    sortable: { type: 'boolean' },
  },
} as const;

const definitionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'id'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    id: { type: 'string', minLength: 1 },
    tenantId: { type: 'string', minLength: 1 },
    paginated: { type: 'boolean' },
    acls: { type: 'array', items: { type: 'string' } },
    countQueryEnabled: { type: 'boolean' },
    keyset: {
      type: 'object',
      additionalProperties: false,
      required: ['columns'],
      properties: {
        columns: {
          type: 'array',
          minItems: 1,
          maxItems: 8,
          uniqueItems: true,
          items: { type: 'string', pattern: FIELD_NAME_PATTERN },
        },
      },
    },
    streamAbove: { type: 'integer', minimum: 1 },
    maxRows: { type: 'integer', minimum: 1 },
    timeoutMillis: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    countMode: { type: 'string', enum: [...COUNT_MODES] },
    cache: {
      type: 'object',
      additionalProperties: false,
      required: ['ttlSeconds'],
      properties: { ttlSeconds: { type: 'integer', minimum: 1, maximum: 86_400 } },
    },
    columnMetadata: {
      type: 'object',
      propertyNames: { pattern: FIELD_NAME_PATTERN },
      additionalProperties: columnSchema,
    },
  },
} as const;

const ajv = makeAjv();
const validateDefinition = ajv.compile(definitionSchema);
const validateArray = ajv.compile({ type: 'array', items: definitionSchema });

type RawColumn = Partial<ColumnMetadata>;
type RawDefinition = Omit<Partial<QueryDefinition>, 'columnMetadata'> & {
  name: string;
  id: string;
  columnMetadata?: Record<string, RawColumn>;
};

function normalize(raw: RawDefinition, where: string): QueryDefinition {
  const columnMetadata: Record<string, ColumnMetadata> = {};
  for (const [key, column] of Object.entries(raw.columnMetadata ?? {})) {
    if (column.name !== undefined && column.name !== key) {
      throw new ConfigError(`${where}: columnMetadata.${key}.name is '${column.name}' but must equal its key '${key}'`);
    }
    columnMetadata[key] = {
      name: key,
      ...(column.columnName === undefined ? {} : { columnName: column.columnName }),
      ...(column.columnType === undefined ? {} : { columnType: column.columnType }),
      filterable: column.filterable ?? false,
      likeQuery: column.likeQuery ?? false,
      containsQuery: column.containsQuery ?? false,
      betweenQuery: column.betweenQuery ?? false,
      sortable: column.sortable ?? false,
    };
  }
  return {
    name: raw.name,
    id: raw.id,
    ...(raw.tenantId === undefined ? {} : { tenantId: raw.tenantId }),
    paginated: raw.paginated ?? false,
    acls: [...(raw.acls ?? [])],
    ...(raw.countQueryEnabled === undefined ? {} : { countQueryEnabled: raw.countQueryEnabled }),
    columnMetadata,
    ...scaleSettings(raw, columnMetadata, where),
  };
}

/** The optional scale settings, each copied only when written; keyset columns must be declared. */
function scaleSettings(
  raw: RawDefinition,
  columnMetadata: Record<string, ColumnMetadata>,
  where: string,
): Partial<QueryDefinition> {
  const settings: Partial<QueryDefinition> = {};
  if (raw.keyset) {
    const unknown = raw.keyset.columns.filter((c) => !Object.hasOwn(columnMetadata, c));
    if (unknown.length > 0)
      throw new ConfigError(
        `${where}: keyset.columns names ${unknown.map((c) => `'${c}'`).join(', ')}, not declared in columnMetadata; declare each key column there`,
      );
    settings.keyset = { columns: [...raw.keyset.columns] };
  }
  if (raw.streamAbove !== undefined) settings.streamAbove = raw.streamAbove;
  if (raw.maxRows !== undefined) settings.maxRows = raw.maxRows;
  if (raw.timeoutMillis !== undefined) settings.timeoutMillis = raw.timeoutMillis;
  if (raw.countMode !== undefined) settings.countMode = raw.countMode;
  if (raw.cache !== undefined) settings.cache = { ttlSeconds: raw.cache.ttlSeconds };
  return settings;
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${source}: invalid JSON: ${(err as Error).message}`);
  }
}

/**
 * Parses a definition file: a JSON array of definitions. Missing flags become false, missing
 * `paginated` false, missing `acls` `[]`, missing `columnMetadata` `{}`; a column's `name`, when
 * given, must equal its key (it is filled from the key otherwise).
 *
 * @throws ConfigError naming the file and the bad key, e.g.
 *   `defs/books.json: [0].columnMetadata.price.sortable must be a boolean`
 *
 * @example
 * const definitions = parseDefinitionFile(readFileSync(file, 'utf8'), file);
 */
export function parseDefinitionFile(text: string, source: string): QueryDefinition[] {
  const data = parseJson(text, source);
  if (!validateArray(data)) {
    const messages = describeSchemaErrors(validateArray.errors).map((p) => p.message);
    throw new ConfigError(`${source}: ${messages.join('; ')}`);
  }
  return (data as RawDefinition[]).map((raw, i) => normalize(raw, `${source}: [${i}]`));
}

/**
 * Parses one definition object (a catalog row holds exactly one, not an array).
 *
 * @throws ConfigError naming `source` and the bad key.
 */
export function parseDefinitionObject(text: string, source: string): QueryDefinition {
  const data = parseJson(text, source);
  if (!validateDefinition(data)) {
    const messages = describeSchemaErrors(validateDefinition.errors).map((p) => p.message || 'must be a JSON object');
    throw new ConfigError(`${source}: ${messages.join('; ')}`);
  }
  return normalize(data as RawDefinition, source);
}
