// Public entry point of @fw/query-core. Every export is listed explicitly.

// Mapper contracts (the SQL engine).
export { FRAMEWORK_SUBSTITUTIONS } from './mapper/mapper-types';
export type { BoundSql, MappedStatement, MapperDocument, FrameworkSubstitution } from './mapper/mapper-types';
export { parseMapperXml, analyzeMapperXml, ParsedMapperDocument } from './mapper/mapper-parser';
export type { MapperAnalysis, DeclaredStatement } from './mapper/mapper-parser';
export { MapperRegistry } from './mapper/mapper-registry';
export { DEFAULT_MAPPER_SETTINGS } from './mapper/mapper-settings';
export type { MapperSettings } from './mapper/mapper-settings';
export { MapperLoadError } from './mapper/mapper-load-error';
export { MapperErrorCodes } from './errors/mapper-error-codes';
export type { MapperProblemKind } from './mapper/mapper-load-error';
export { MapperRenderError } from './mapper/dynamic-sql-renderer';
export { DATABASE_ID } from './mapper/statement-elements';

// The mapper check (bin fw-check-mappers).
export { checkMapperFiles } from './check/mapper-check';
export type { MapperCheckReport, StatementCheck, StatementStatus, FileProblem } from './check/mapper-check';
export { findMapperFiles } from './check/mapper-files';
export { reportLines, summaryLine, everythingLoads } from './check/check-report';
export { checkMappersMain, CHECK_MAPPERS_USAGE } from './check/check-mappers-cli';

// Service facade.
export { makeQueryService } from './service/query-service';
export type {
  QueryService,
  QueryServiceOptions,
  QuerySummary,
  SearchContext,
  SearchAnswer,
} from './service/query-service-types';
export type { SearchStream, StreamSummary } from './service/search-stream';
export { buildSearchResponse, publicColumnMetadata } from './service/search-response-builder';
export { serializeSearchResponse } from './service/search-response-serializer';
export type { ResponseShape, ResponseInput } from './service/search-response-builder';

// Errors.
export { QueryErrorCodes, QueryErrorStatus, queryError, problemsError } from './errors/query-error-codes';
export type { QueryErrorCode, QueryProblem } from './errors/query-error-codes';

// Config.
export { parseQueryConfig } from './config/query-config-parser';
export { QUERY_CONFIG_DEFAULTS } from './config/query-config-types';
export type {
  QueryConfig,
  QueryHostConfigParts,
  DataSourceConfig,
  TenantDataSourceConfig,
  PaginationConfig,
  JdbcCatalogConfig,
  CannedReportsConfig,
  CannedReportStoreKind,
  MapperSettingsConfig,
} from './config/query-config-types';
export { splitPatterns, resolvePatterns } from './config/file-patterns';

// Definitions.
export {
  parseDefinitionFile,
  parseDefinitionObject,
  FIELD_NAME_PATTERN,
  COLUMN_NAME_PATTERN,
} from './definition/query-definition-parser';
export { makeQueryDefinitionStore } from './definition/query-definition-store';
export type { QueryDefinitionStore } from './definition/query-definition-store';
export { COLUMN_TYPES, COUNT_MODES } from './definition/query-definition-types';
export type {
  QueryDefinition,
  ColumnMetadata,
  ColumnType,
  SourcedDefinition,
  CountMode,
  KeysetSpec,
  CacheSpec,
} from './definition/query-definition-types';

// Scale: keyset cursors, statement timeouts, planned counts, the answer cache.
export { encodeKeysetCursor, decodeKeysetCursor } from './keyset/keyset-cursor';
export type { KeysetCursor, CursorDirection } from './keyset/keyset-cursor';
export { isStatementTimeout } from './execution/statement-runner';
export { entityTag } from './cache/result-cache';

// Search requests and responses.
export { makeSearchRequestParser, MAX_PAGE_NUM } from './search/search-request-parser';
export type { SearchRequestParser } from './search/search-request-parser';
export { planSearch, coerceScalar } from './search/search-planner';
export type { SearchPlan } from './search/search-planner';
export { buildOrderBy, buildPagination, quoteIdentifier, escapeLike } from './search/sql-fragments';
export type { PageWindow } from './search/sql-fragments';
export { makeInMemoryCannedReportStore, compareCannedReportNames } from './search/canned-report-store';
export type { CannedReport, CannedReportSettings, CannedReportStore } from './search/canned-report-store';
export { makeDatabaseCannedReportStore, CANNED_REPORT_TABLE } from './search/database-canned-report-store';
export type { DatabaseCannedReportStoreOptions } from './search/database-canned-report-store';
export { cannedReportDatabaseOptions } from './service/canned-report-store-setup';
export type {
  SearchRequest,
  SearchResponse,
  SearchResultRow,
  SortCriterion,
  SortSpec,
  FilterCondition,
  FilterOperator,
  PaginationInfo,
  PublicColumnMetadata,
} from './search/search-types';

// Providers.
export { makeSqlQueryProvider, COUNT_STATEMENT_SUFFIX } from './provider/sql-query-provider';
export type { SqlQueryProviderOptions, StatementLookup } from './provider/sql-query-provider';
export { makeInMemoryQueryProvider } from './provider/in-memory-query-provider';
export type { InMemoryQueryProviderOptions } from './provider/in-memory-query-provider';
export type {
  QueryExecutionProvider,
  QueryExecutionRequest,
  QueryExecutionResult,
  ExecutionMode,
  RowBatchStream,
} from './provider/query-provider-types';

// Tenant routing.
export { makeTenantRouter, databaseOptions } from './tenant/tenant-router';
export type { TenantRouter, TenantRouterOptions, DatabaseFactory } from './tenant/tenant-router';

// Catalog.
export { readCatalog, catalogChecksum, mapperRowName, definitionRowName } from './catalog/catalog-reader';
export type { CatalogContents, CatalogMapperRow, CatalogDefinitionRow } from './catalog/catalog-reader';
export { loadQuerySources } from './catalog/query-source-loader';
export type { MapperParser, QuerySources, QuerySourcesOptions } from './catalog/query-source-loader';
export { queryCoreMigrations } from './schema/query-core-migrations';
