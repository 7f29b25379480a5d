/**
 * The runner's events (`onEvent`): every one carries the worker id, and a listener that throws is
 * logged instead of breaking the runner.
 */
import type { Logger } from '@fw/core';
import type { ClaimedWorkItem } from '../repository/work-item-repository';
import type { WorkItemRunnerEvent, WorkItemRunnerEventType } from './work-item-runner-types';

export interface RunnerEventsDeps {
  workerId: string;
  logger: Logger;
  onEvent: ((event: WorkItemRunnerEvent) => void) | undefined;
}

export interface RunnerEvents {
  /** Any event (without its worker id). */
  emit(event: Omit<WorkItemRunnerEvent, 'workerId'>): void;
  /** An event about one item. */
  itemEvent(type: WorkItemRunnerEventType, item: ClaimedWorkItem, error?: string): void;
}

export function makeRunnerEvents(deps: RunnerEventsDeps): RunnerEvents {
  const { workerId, logger, onEvent } = deps;
  const emit = (event: Omit<WorkItemRunnerEvent, 'workerId'>): void => {
    if (onEvent === undefined) return;
    try {
      onEvent({ workerId, ...event });
    } catch (err) {
      logger.error({ err }, 'onEvent listener failed');
    }
  };
  return {
    emit,
    itemEvent(type, item, error) {
      if (onEvent !== undefined)
        emit({ type, itemId: item.id, processId: item.processId, attempts: item.attempts, error });
    },
  };
}
