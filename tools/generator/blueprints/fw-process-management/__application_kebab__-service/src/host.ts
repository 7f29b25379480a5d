// The durable worker host of {{application}} (docs/durable-workers.md of the framework): the process
// manager in outbox mode, the JDBC work-item queue, a runner over this application's workers.
// Run as many copies as you like against one database; they share the work.
import type { Database } from '@fw/core';
import { makeJdbcWorkerHost, type JdbcWorkerHost, type JdbcWorkerHostOptions } from '@fw/jdbc-process-starter';
import { makeDatabaseProcessConfigurator, makeJsonProcessConfigurator, processDb } from '@fw/process-service';
import { processDefinitions } from '{{scope}}/{{applicationKebab}}-configurations';
import { allWorkers } from './workers';

/** Where the definitions come from at run time (the generator's definitionSource answer). */
export const DEFINITION_SOURCE: 'json' | 'database' = '{{definitionSource}}';

export interface HostOptions {
  database: Database;
  /** Default: {{definitionSource}}. `database` reads process_definition (seed it first: `seed`). */
  definitionSource?: 'json' | 'database';
  concurrency?: number;
  recoverySeconds?: number;
  /** Anything else of makeJdbcWorkerHost (runner/outbox tuning, closeDatabase). */
  tuning?: Partial<JdbcWorkerHostOptions>;
}

export function makeHost(options: HostOptions): JdbcWorkerHost {
  const source = options.definitionSource ?? DEFINITION_SOURCE;
  const configurator = source === 'database' ? makeDatabaseProcessConfigurator({ db: processDb(options.database) }) : makeJsonProcessConfigurator({ definitions: processDefinitions() });
  return makeJdbcWorkerHost({
    database: options.database,
    configurator,
    workers: allWorkers(),
    concurrency: options.concurrency ?? 8,
    recoverySeconds: options.recoverySeconds ?? 60,
    ...options.tuning,
  });
}
