/**
 * The port through which the process service resolves definitions (IProcessConfigurator).
 * `@fw/process-service` ships a JSON source and a database source.
 *
 * @example
 * const def = await configurator.findByName('import');
 * if (!def) throw new Error('unknown process type');
 * for (const successor of await configurator.findSuccessors('import')) { ... }
 */
import type { ProcessDef } from '../model/process-def';

export interface ProcessConfigurator {
  /** The definition of `processType`, or undefined. */
  findByName(processType: string): Promise<ProcessDef | undefined>;
  /** Every definition whose `predecessorProcessType` equals `processType`, ordered by processType. */
  findSuccessors(processType: string): Promise<ProcessDef[]>;
  /** Every definition, ordered by processType. */
  list(): Promise<ProcessDef[]>;
  /** Drops cached definitions (no-op for sources without a cache). */
  invalidate?(): void;
}
