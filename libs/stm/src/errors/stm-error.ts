/**
 * Errors raised by the state machine. Each is an `FwError` of `@fw/core` whose `subErrorCode` is a
 * stable {@link StmErrorCode}, so hosts can map it without parsing messages (the process service
 * maps `STM_EVENT_NOT_ALLOWED` to HTTP 422). Its `code` is 500 and it is not exposed: one that
 * reaches an HTTP answer unmapped is the generic 500, never its message.
 *
 * @example
 * try { await machine.send(entity, 'pay'); }
 * catch (e) { if (isStmError(e, StmErrorCodes.eventNotAllowed)) reply(422, e.message); }
 */
import { FwError } from '@fw/core';

export const StmErrorCodes = {
  /** The flow definition or XML file is invalid; `issues` lists every problem. */
  invalidFlow: 'STM_INVALID_FLOW',
  /** The XML is not well-formed or not a `<states>` document. */
  xmlParse: 'STM_XML_PARSE_ERROR',
  /** An event was sent that the current state does not accept (or that config disables). */
  eventNotAllowed: 'STM_EVENT_NOT_ALLOWED',
  /** The flow id is not known to the machine. */
  unknownFlow: 'STM_UNKNOWN_FLOW',
  /** The entity's state is not a state of its flow (unknown or disabled by config). */
  unknownState: 'STM_UNKNOWN_STATE',
  /** A flow references an action name that is not registered. */
  unknownAction: 'STM_UNKNOWN_ACTION',
  /** A flow references a condition name that is not registered. */
  unknownCondition: 'STM_UNKNOWN_CONDITION',
  /** `send` on an entity without state, or `start` on an entity that already has one. */
  noState: 'STM_NO_STATE',
  alreadyStarted: 'STM_ALREADY_STARTED',
  /** No branch of an auto state matched. */
  noTransition: 'STM_NO_TRANSITION',
  /** Auto states kept following each other (a decision loop). */
  maxStepsExceeded: 'STM_MAX_STEPS_EXCEEDED',
} as const;

export type StmErrorCode = (typeof StmErrorCodes)[keyof typeof StmErrorCodes];

/** One problem found while validating a flow. */
export interface FlowIssue {
  /** Stable issue code, for example `UNKNOWN_TARGET_STATE`. */
  code: string;
  /** Human message naming the flow, state and event concerned. */
  message: string;
  flowId?: string;
  stateId?: string;
  eventId?: string;
  /** Line of the element concerned, for flows read from a states XML document (1-based). */
  line?: number;
}

export interface StmErrorInit {
  /** Becomes the error's `subErrorCode`. */
  code: StmErrorCode;
  message: string;
  flowId?: string;
  stateId?: string;
  eventId?: string;
  issues?: readonly FlowIssue[];
  /** Where a states XML document is not well-formed (for `STM_XML_PARSE_ERROR`). */
  line?: number;
  column?: number;
  cause?: unknown;
}

export class StmError extends FwError {
  declare readonly subErrorCode: StmErrorCode;
  readonly flowId?: string;
  readonly stateId?: string;
  readonly eventId?: string;
  /** Validation problems (for {@link StmErrorCodes.invalidFlow}); empty otherwise. */
  readonly issues: readonly FlowIssue[];
  /** Line and column where a states XML document is not well-formed (for {@link StmErrorCodes.xmlParse}). */
  readonly line?: number;
  readonly column?: number;

  constructor(init: StmErrorInit) {
    super({ code: 500, subErrorCode: init.code, description: init.message, expose: false, cause: init.cause });
    this.name = 'StmError';
    this.flowId = init.flowId;
    this.stateId = init.stateId;
    this.eventId = init.eventId;
    this.issues = init.issues ?? [];
    this.line = init.line;
    this.column = init.column;
  }
}

/** True for a {@link StmError} (optionally with the given code), also from another package copy. */
export function isStmError(value: unknown, code?: StmErrorCode): value is StmError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { type?: unknown; name?: unknown; subErrorCode?: unknown };
  return v.type === 'FwError' && v.name === 'StmError' && (code === undefined || v.subErrorCode === code);
}
