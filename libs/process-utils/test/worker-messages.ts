/** Worker messages and child results for tests that run the batch service without a process manager. */
import type { SubProcessResult, WorkerDto } from '@fw/process-api';

/** What {@link messageBuilder} returns: a message of one step of the file's process. */
export type MessageOf = (
  processType: string,
  workerType: WorkerDto['workerType'],
  input: unknown,
  extra?: Partial<WorkerDto>,
) => WorkerDto;

/**
 * A builder of worker messages that share `common` (the process id, tenant, trigger, config);
 * a root message without tenant, trigger or config unless `common` or `extra` says otherwise.
 */
export function messageBuilder(common: Partial<WorkerDto> & Pick<WorkerDto, 'processId'>): MessageOf {
  return (processType, workerType, input, extra = {}) => ({
    tenant: null,
    triggerId: null,
    parentId: null,
    config: {},
    ...common,
    processType,
    workerType,
    input,
    ...extra,
  });
}

/** Successful children `c0`, `c1`, … with these outputs, as an aggregator's message carries them. */
export function childResults(outputs: unknown[]): SubProcessResult[] {
  return outputs.map((output, i) => ({
    processId: `c${i}`,
    processType: 'x',
    stateId: 'PROCESSED',
    successful: true,
    output,
  }));
}
