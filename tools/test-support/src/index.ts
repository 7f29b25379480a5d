export { createTestDatabase, describeEachDatabase, databaseTargets, postgresServerUrl, MIGRATIONS_DIR } from './test-database';
export type { DatabaseTarget, TestDatabase, TestDatabaseOptions } from './test-database';
