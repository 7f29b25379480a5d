export {
  createTestDatabase,
  describeEachDatabase,
  databaseTargets,
  postgresServerUrl,
  readWorkspaceMigrations,
} from './test-database';
export type { DatabaseTarget, TestDatabase, TestDatabaseOptions } from './test-database';
export { spawnScript, countMatches } from './spawned-script';
export type { SpawnedScript } from './spawned-script';
export { readChildCountRecords, stopMidTree, waitForTreeFinished, waitMidTree } from './process-tree-probe';
export type { ChildCountRecords, FinishedTree, MidTreeStop } from './process-tree-probe';
export { openTcpRelay } from './tcp-relay';
export type { TcpRelay } from './tcp-relay';
export { createEmptyPostgresDatabase, startPrivatePostgres } from './private-postgres';
export type { PrivatePostgres } from './private-postgres';
export { assertConforms, checkedSupertest } from './checked-supertest';
export type { AnswerContract, CheckedAgent, CheckedAnswer } from './checked-supertest';
export { pgbouncerBinary, startPrivatePgbouncer } from './private-pgbouncer';
export type { PrivatePgbouncer, PrivatePgbouncerOptions } from './private-pgbouncer';
export { freePort } from './local-port';
export { resolveRef, schemaArbitrary } from './schema-arbitrary';
export type { HostileValues, JsonValue, SchemaArbitraryOptions } from './schema-arbitrary';
export { fwRejection } from './rejection';
export { exportedSpans, startOtlpReceiver } from './otlp-receiver';
export type { ExportedSpan, OtlpReceiver, ReceivedExport } from './otlp-receiver';
export { PROMETHEUS_BINARY, prometheusBinary, startPrometheus } from './private-prometheus';
export type { InstantSample, RangeSeries, RunningPrometheus, ScrapeJob } from './private-prometheus';
export { queryPlanOf } from './query-plan';
