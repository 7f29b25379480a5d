/** The errors workflow services answer, with their stable sub-error codes. */
import { FwError } from '@fw/core';

/** Stable sub-error codes of workflow services. */
export const WorkflowErrorCodes = {
  notFound: 'WF404',
  eventNotAllowed: 'WF422',
  concurrentUpdate: 'WF409',
  unknownFlow: 'WF404F',
} as const;

/** 404: the service has no entity with the id. */
export function entityNotFound(service: string, id: string): FwError {
  return new FwError({
    code: 404,
    subErrorCode: WorkflowErrorCodes.notFound,
    description: `No ${service} with id ${id}`,
    params: [service, id],
  });
}

/** 404: the service has no flow with the id. */
export function unknownFlow(service: string, flowId: string): FwError {
  return new FwError({
    code: 404,
    subErrorCode: WorkflowErrorCodes.unknownFlow,
    description: `Service '${service}' has no flow '${flowId}'`,
    params: [service, flowId],
  });
}

/** 404: the flow has no state with the id. */
export function unknownState(flowId: string, stateId: string): FwError {
  return new FwError({
    code: 404,
    subErrorCode: WorkflowErrorCodes.unknownFlow,
    description: `Flow '${flowId}' has no state '${stateId}'`,
    params: [flowId, stateId],
  });
}

/** 422: the entity's state does not allow the event (`message` is the state machine's). */
export function eventNotAllowed(message: string, eventId: string, stateId: string): FwError {
  return new FwError({
    code: 422,
    subErrorCode: WorkflowErrorCodes.eventNotAllowed,
    description: message,
    params: [eventId, stateId],
  });
}

/** 409: another call changed the entity since it was read. */
export function concurrentUpdate(service: string, id: string, expected: number): FwError {
  return new FwError({
    code: 409,
    subErrorCode: WorkflowErrorCodes.concurrentUpdate,
    description: `${service} ${id} was changed by another call (version ${expected} is no longer current): read it again and retry`,
    params: [service, id],
  });
}
