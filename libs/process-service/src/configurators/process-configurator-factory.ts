/**
 * Chooses the definition source named by `fw.process.configurator` (`json`, the default, or
 * `database`).
 *
 * @example
 * const configurator = makeProcessConfigurator({ source: 'database', db: processDb(database) });
 */
import { ConfigError } from '@fw/core';
import type { ProcessConfigurator } from '@fw/process-api';
import type { ProcessDb } from '../repository/process-tables';
import { makeDatabaseProcessConfigurator } from './database-process-configurator';
import { makeJsonProcessConfigurator } from './json-process-configurator';

export type ProcessConfiguratorSource = 'json' | 'database';

export interface ProcessConfiguratorOptions {
  /** Default `json`. */
  source?: ProcessConfiguratorSource | string;
  /** `json`: the definitions file. */
  file?: string;
  /** `json`: definitions given directly. */
  definitions?: readonly unknown[];
  /** `database`: the database holding `process_definition`. */
  db?: ProcessDb;
}

export function makeProcessConfigurator(options: ProcessConfiguratorOptions): ProcessConfigurator {
  const source = options.source ?? 'json';
  if (source === 'json') return makeJsonProcessConfigurator({ file: options.file, definitions: options.definitions });
  if (source === 'database') {
    if (!options.db) throw new ConfigError('fw.process.configurator=database needs a database handle');
    return makeDatabaseProcessConfigurator({ db: options.db });
  }
  throw new ConfigError(`fw.process.configurator must be 'json' or 'database', got '${source}'`);
}
