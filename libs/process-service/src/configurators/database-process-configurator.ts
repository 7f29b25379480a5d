/**
 * The `database` definition source: table `process_definition (process_type primary key,
 * definition JSON text)`. All definitions are loaded with one query on first use and cached until
 * {@link DatabaseProcessConfigurator.invalidate} is called (after a committed change, by the
 * administration API or `/definitions/refresh`). A row that is not a valid definition fails the
 * load with a P012 error naming the row; the cache stays empty so the next call retries.
 *
 * @example
 * const configurator = makeDatabaseProcessConfigurator({ db: processDb(database) });
 * await db.insertInto('process_definition').values({ process_type: 'x', definition: '{"processType":"x","leaf":true}' }).execute();
 * configurator.invalidate();
 */
import { FwError } from '@fw/core';
import { ProcessErrorCodes, type ProcessConfigurator, type ProcessDef } from '@fw/process-api';
import type { ProcessDb } from '../repository/process-tables';
import { copyProcessDef, indexProcessDefs, parseProcessDef, sortedDefs, successorsOf } from './process-def-validation';

export interface DatabaseProcessConfiguratorOptions {
  /** Handle on the database holding `process_definition` (not a transaction: the cache outlives it). */
  db: ProcessDb;
}

export interface DatabaseProcessConfigurator extends ProcessConfigurator {
  /** Drops the cache; the next lookup reloads every definition. */
  invalidate(): void;
  /** Number of loads from the database so far (for monitoring and tests). */
  readonly loadCount: number;
}

/** Makes the cached `database` configurator. */
export function makeDatabaseProcessConfigurator(
  options: DatabaseProcessConfiguratorOptions,
): DatabaseProcessConfigurator {
  let cache: Promise<Map<string, ProcessDef>> | undefined;
  let loads = 0;

  const load = async (): Promise<Map<string, ProcessDef>> => {
    loads += 1;
    const rows = await options.db
      .selectFrom('process_definition')
      .select(['process_type', 'definition'])
      .orderBy('process_type')
      .execute();
    try {
      const defs = rows.map((row) => {
        const where = `process_definition row '${row.process_type}'`;
        let parsed: unknown;
        try {
          parsed = JSON.parse(row.definition);
        } catch {
          throw new Error(`${where}: definition is not valid JSON`);
        }
        const def = parseProcessDef(parsed, where);
        if (def.processType !== row.process_type)
          throw new Error(`${where}: definition names processType '${def.processType}'`);
        return def;
      });
      return indexProcessDefs(defs, 'process_definition');
    } catch (e) {
      throw new FwError({
        code: 500,
        subErrorCode: ProcessErrorCodes.definitionSourceFailed,
        description: (e as Error).message,
        cause: e,
      });
    }
  };

  const defs = (): Promise<Map<string, ProcessDef>> => {
    if (!cache) {
      const pending = load();
      cache = pending;
      pending.catch(() => {
        if (cache === pending) cache = undefined;
      });
    }
    return cache;
  };

  return {
    async findByName(processType) {
      const def = (await defs()).get(processType);
      return def ? copyProcessDef(def) : undefined;
    },
    async findSuccessors(processType) {
      return successorsOf(await defs(), processType);
    },
    async list() {
      return sortedDefs(await defs());
    },
    invalidate() {
      cache = undefined;
    },
    get loadCount() {
      return loads;
    },
  };
}
