/**
 * What the three worker base classes share: the process type they serve and how the process
 * input is turned into the typed `TInput`.
 */
import type { WorkerType } from '@fw/process-api';
import type { PayloadSchema } from '../payload/payload-schema';

export abstract class WorkerBase<TInput> {
  /** Name of the process definition this worker serves. */
  abstract readonly processType: string;
  /** SPLITTER, EXECUTOR or AGGREGATOR (set by the base classes). */
  abstract readonly workerType: WorkerType;
  /**
   * Optional schema of the process input (see `shape`). Without one, and without an overridden
   * {@link WorkerBase.parseInput}, the input is passed on unchecked.
   */
  readonly inputSchema?: PayloadSchema<TInput>;

  /**
   * Validate hook: turns the raw process input into `TInput`. Throw a `WorkerPayloadError` to
   * report MALFORMED_PAYLOAD or INCOMPATIBLE_FIELD_TYPE; any other error counts as MALFORMED_PAYLOAD.
   */
  parseInput(raw: unknown): TInput {
    return this.inputSchema ? this.inputSchema.parse(raw, 'input') : (raw as TInput);
  }
}
