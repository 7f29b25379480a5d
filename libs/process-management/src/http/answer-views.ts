/**
 * What the API answers for records of the ports: exactly the fields of the response schemas,
 * copied one by one, so a port that returns more (a stack trace, an internal column) never leaks
 * it and the answer stays valid against the OpenAPI document.
 *
 * @example
 * res.json(pageOf(page.content.map(executionView), page.totalElements, request));
 */
import type { CrontabRecord, ExecutionRecord, ExecutionView, TriggerPayload } from '../ports/management-ports';
import type { Page } from './pagination';

function payloadView(payload: TriggerPayload): TriggerPayload {
  return {
    processDefName: payload.processDefName,
    ...(payload.args === undefined ? {} : { args: payload.args }),
    ...(payload.description === undefined ? {} : { description: payload.description }),
  };
}

/** An execution without its failure stack. */
export function executionView(r: ExecutionRecord): ExecutionView {
  return {
    id: r.id,
    triggerId: r.triggerId,
    tenant: r.tenant,
    source: r.source,
    scheduledTime: r.scheduledTime,
    receivedTime: r.receivedTime,
    startTime: r.startTime,
    finishTime: r.finishTime,
    eventName: r.eventName,
    payload: payloadView(r.payload),
    status: r.status,
    failureMessage: r.failureMessage,
    cronId: r.cronId,
    processId: r.processId,
    logId: r.logId,
    eventId: r.eventId,
  };
}

export function crontabView(r: CrontabRecord): CrontabRecord {
  return {
    id: r.id,
    tenant: r.tenant,
    name: r.name,
    cronExpression: r.cronExpression,
    timezone: r.timezone,
    enabled: r.enabled,
    payload: payloadView(r.payload),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    lastFiredAt: r.lastFiredAt,
    lastScheduledTime: r.lastScheduledTime,
  };
}

/** The same page with each item mapped. */
export function mapPage<T, U>(page: Page<T>, view: (item: T) => U): Page<U> {
  return {
    content: page.content.map(view),
    totalElements: page.totalElements,
    page: page.page,
    size: page.size,
    totalPages: page.totalPages,
  };
}
