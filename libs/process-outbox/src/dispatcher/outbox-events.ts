/**
 * The dispatcher's events (`onEvent`): every one carries the worker id, and a listener that throws
 * is logged instead of breaking the dispatcher.
 */
import type { Logger } from '@fw/core';
import type { OutboxCommand } from '../repository/outbox-repository';
import type { OutboxEvent, OutboxEventType } from './outbox-dispatcher-types';

/** The text of a failure, as events and `last_error` carry it. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  const e = error as { description?: unknown } | null;
  return typeof e?.description === 'string' ? e.description : String(error);
}

export interface OutboxEventsDeps {
  workerId: string;
  logger: Logger;
  onEvent: ((event: OutboxEvent) => void) | undefined;
}

export interface OutboxEvents {
  /** Any event (without its worker id). */
  emit(event: Omit<OutboxEvent, 'workerId'>): void;
  /** An event about one command. */
  commandEvent(type: OutboxEventType, command: OutboxCommand, error?: string): void;
}

export function makeOutboxEvents(deps: OutboxEventsDeps): OutboxEvents {
  const { workerId, logger, onEvent } = deps;
  const emit = (event: Omit<OutboxEvent, 'workerId'>): void => {
    try {
      onEvent?.({ workerId, ...event });
    } catch (err) {
      logger.error({ err }, 'onEvent listener failed');
    }
  };
  return {
    emit,
    commandEvent: (type, c, error) =>
      emit({ type, commandId: c.id, commandType: c.commandType, attempts: c.attempts, error }),
  };
}
