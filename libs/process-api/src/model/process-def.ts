/**
 * A process definition: the data that declares a process type, its shape (leaf or not), its
 * place in chains (`predecessorProcessType`) and the config map handed to its workers.
 *
 * @example
 * const defs: ProcessDef[] = [
 *   { processType: 'import', leaf: false, config: { batchSize: '500' } },
 *   { processType: 'import-chunk', leaf: true, parentProcessType: 'import' },
 *   { processType: 'report', leaf: true, predecessorProcessType: 'import', predecessorArgs: 'OUTPUT' },
 * ];
 */

/** What a successor receives as input from its completed predecessor. */
export const PredecessorArgs = {
  /** The predecessor's input. */
  INPUT: 'INPUT',
  /** The predecessor's output. */
  OUTPUT: 'OUTPUT',
  /** `{ input, output }` of the predecessor (the default). */
  BOTH: 'BOTH',
} as const;

export type PredecessorArgsMode = (typeof PredecessorArgs)[keyof typeof PredecessorArgs];

export interface ProcessDef {
  /** Key of the definition (the `processDefName` of a create payload). */
  processType: string;
  /** A leaf executes directly; a non-leaf splits, waits for its children and aggregates. */
  leaf: boolean;
  /**
   * Type of the parent. When set, a process of this type can only be created as a child of a
   * process of that type (a split naming it under another parent is refused, 400 P411); when
   * absent, any parent may create it.
   */
  parentProcessType?: string | null;
  /** When a process of this type completes, a new process of the defining type is started. */
  predecessorProcessType?: string | null;
  /** Default `BOTH`. */
  predecessorArgs?: PredecessorArgsMode | null;
  /** One map shared (as copies) by the splitter, executor and aggregator. */
  config?: Record<string, string>;
}

/** The effective `predecessorArgs` of a definition (`BOTH` when absent). */
export function predecessorArgsOf(def: Pick<ProcessDef, 'predecessorArgs'>): PredecessorArgsMode {
  return def.predecessorArgs ?? PredecessorArgs.BOTH;
}
