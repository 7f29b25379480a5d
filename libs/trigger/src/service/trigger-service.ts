/**
 * The trigger service: the single ingress every trigger source (cron, manual, external) goes
 * through. It is idempotent on (trigger id, event name):
 *
 * 1. In one transaction it claims the pair in the TriggerLog (`on conflict do nothing`) and, when
 *    the claim wins, writes the history row RUNNING. A lost claim is a duplicate: no history row,
 *    nothing dispatched, the original log and event ids answered.
 * 2. After the commit it dispatches the ProcessCreate (with the trigger id on the ProcessDto, so
 *    the process keeps its trigger lineage) under the trigger's request context (tenant, trigger
 *    id and source, request id, caller: see {@link triggerContext}), created here once.
 * 3. It records COMPLETED (the dispatch returned; processes may still be running) or FAILED with
 *    the error's message and stack. A failed dispatch is answered, not thrown.
 *
 * @example
 * const triggers = makeTriggerService({ database, dispatch: processCreateDispatch(makeProcessEventHandlers(manager)) });
 * const result = await triggers.trigger({ source: 'MANUAL', triggerId: manualTriggerId('t1', 'k1'), tenant: 't1',
 *   payload: { processDefName: 'nightly-import', args: {} } });
 * // { triggerId, eventId, logId, dispatched: true, duplicate: false, status: 'COMPLETED', processId }
 */
import { createLogger, isFwError, type Database, type Logger } from '@fw/core';
import type { FwMetrics } from '@fw/telemetry';
import { randomUUID } from 'node:crypto';
import { invalid } from '../errors/trigger-error';
import {
  SUPPORTED_TRIGGER_EVENTS,
  TRIGGER_SOURCES,
  type ExecutionFilter,
  type Page,
  type PageRequest,
  type TriggerDispatch,
  type TriggerExecution,
  type TriggerInput,
  type TriggerResult,
  type WriteOptions,
} from '../model/trigger-model';
import { validatePayload, validateTenant } from '../model/trigger-validation';
import { makeExecutionStore } from '../repository/execution-store';
import { triggerDb } from '../schema/trigger-tables';
import { claimTrigger } from './trigger-claim';
import { dispatchTraced } from './traced-dispatch';
import { triggerContext } from './trigger-context';

/** Longest stored trigger id (namespace prefix included). */
export const MAX_STORED_TRIGGER_ID_LENGTH = 512;

export interface TriggerServiceOptions {
  database: Pick<Database, 'db'>;
  /** Delivers the ProcessCreate; see {@link processCreateDispatch}. */
  dispatch: TriggerDispatch;
  logger?: Logger;
  /** Clock (default `new Date()`). */
  clock?: () => Date;
  /**
   * Where `fw_triggers_fired_total{source}` is counted, once per dispatched trigger (COMPLETED);
   * cron firings count here too, as they go through this service. Absent: nothing is recorded.
   */
  metrics?: FwMetrics;
}

export interface TriggerService {
  /**
   * Raises the input's event once per (triggerId, eventName); see the module comment.
   * `options.inTransaction` runs in the claim's transaction (for a duplicate too): a row of the
   * caller's that commits with the trigger log entry and the RUNNING execution, or not at all.
   */
  trigger(input: TriggerInput, options?: WriteOptions): Promise<TriggerResult>;
  /** The tenant's execution history, filtered (exact matches, AND), newest first. */
  listExecutions(filter: ExecutionFilter, page: PageRequest): Promise<Page<TriggerExecution>>;
  /** One execution of the tenant, or undefined. */
  getExecution(id: string, tenant: string): Promise<TriggerExecution | undefined>;
}

function validateInput(input: TriggerInput): void {
  if (!TRIGGER_SOURCES.includes(input.source))
    throw invalid('source', `source must be one of ${TRIGGER_SOURCES.join(', ')}`);
  if (typeof input.triggerId !== 'string' || input.triggerId.trim() === '')
    throw invalid('triggerId', 'triggerId is required');
  if (input.triggerId.length > MAX_STORED_TRIGGER_ID_LENGTH)
    throw invalid('triggerId', `triggerId must be at most ${MAX_STORED_TRIGGER_ID_LENGTH} characters`);
  const eventName = input.eventName ?? 'ProcessCreate';
  if (!SUPPORTED_TRIGGER_EVENTS.includes(eventName))
    throw invalid('eventName', `eventName must be one of ${SUPPORTED_TRIGGER_EVENTS.join(', ')}`);
  if (
    input.scheduledTime !== undefined &&
    !(input.scheduledTime instanceof Date && !Number.isNaN(input.scheduledTime.getTime()))
  ) {
    throw invalid('scheduledTime', 'scheduledTime must be a valid Date');
  }
}

function failureOf(error: unknown): { message: string; stack: string | null; code?: number; subErrorCode?: string } {
  // Only an error meant for clients keeps its status and code (the router answers a 4xx with it).
  if (isFwError(error) && error.expose)
    return {
      message: error.description,
      stack: error.stack ?? null,
      code: error.code,
      subErrorCode: error.subErrorCode,
    };
  if (error instanceof Error) return { message: error.message || error.name, stack: error.stack ?? null };
  return { message: String(error), stack: null };
}

/** Makes the trigger service over the trigger tables of `database`. */
export function makeTriggerService(options: TriggerServiceOptions): TriggerService {
  const db = triggerDb(options.database);
  const logger = options.logger ?? createLogger({ name: 'trigger' });
  const clock = options.clock ?? (() => new Date());
  const executions = makeExecutionStore(db);

  return {
    async trigger(input, writeOptions) {
      validateInput(input);
      const tenant = validateTenant(input.tenant);
      const payload = validatePayload(input.payload);
      const eventName = input.eventName ?? 'ProcessCreate';
      const receivedTime = clock();
      const executionId = randomUUID();

      const claim = await claimTrigger(db, {
        input,
        tenant,
        payload,
        eventName,
        executionId,
        receivedTime,
        clock,
        inTransaction: writeOptions?.inTransaction,
      });
      const { entry } = claim;
      const ids = { triggerId: entry.triggerId, eventId: entry.eventId, logId: entry.logId };

      if (!claim.claimed) {
        logger.debug({ triggerId: input.triggerId, eventName, tenant }, 'duplicate trigger ignored');
        return { ...ids, dispatched: false, duplicate: true };
      }

      try {
        const dto = {
          processDefName: payload.processDefName,
          args: payload.args ?? {},
          ...(payload.description === undefined ? {} : { description: payload.description }),
          triggerId: input.triggerId,
          tenant,
        };
        const out = await dispatchTraced(options.dispatch, dto, triggerContext(input, tenant, executionId));
        const processId = typeof out?.processId === 'string' ? out.processId : null;
        await executions.finish(executionId, { status: 'COMPLETED', finishTime: clock(), processId });
        options.metrics?.triggerFired({ tenant, processType: payload.processDefName, source: input.source });
        return {
          ...ids,
          dispatched: true,
          duplicate: false,
          executionId,
          status: 'COMPLETED',
          ...(processId === null ? {} : { processId }),
        };
      } catch (error) {
        const failure = failureOf(error);
        logger.warn(
          { err: error, triggerId: input.triggerId, tenant, source: input.source },
          'trigger dispatch failed',
        );
        await executions.finish(executionId, {
          status: 'FAILED',
          finishTime: clock(),
          failureMessage: failure.message,
          failureStack: failure.stack,
        });
        return {
          ...ids,
          dispatched: false,
          duplicate: false,
          executionId,
          status: 'FAILED',
          failure: {
            message: failure.message,
            ...(failure.code === undefined ? {} : { code: failure.code, subErrorCode: failure.subErrorCode }),
          },
        };
      }
    },
    listExecutions: (filter, page) => executions.list(filter, page),
    getExecution: (id, tenant) => executions.get(id, tenant),
  };
}
