/**
 * Sub-error codes (`subErrorCode` of the framework envelope) owned by the process service.
 * The HTTP status of each is given in brackets.
 *
 * @example
 * if (body.subErrorCode === ProcessErrorCodes.eventNotAllowed) { ... } // 422
 */
export const ProcessErrorCodes = {
  /** [400] The create payload has no `processDefName`. */
  processDefNameMissing: 'P001',
  /** [400] `processDefName` (or a child's / successor's processType) names no definition. */
  unknownProcessType: 'P002',
  /** [400] The request body or event payload is malformed (wrong types, bad UUID, ...). */
  invalidPayload: 'P003',
  /** [404] No process with this id (in this tenant). */
  processNotFound: 'P404',
  /** [400] The event id is not one of the process flow's events. */
  unknownEvent: 'P405',
  /** [409] A requested `childId` already belongs to another process. */
  childIdConflict: 'P409',
  /** [400] A reported `childId` is not a child of the process. */
  notAChild: 'P410',
  /** [400] A child's definition names a `parentProcessType` other than the splitting process's type. */
  parentTypeMismatch: 'P411',
  /** [400] A root process (create, trigger, cron) of a type that can only be a child (`parentProcessType`). */
  childOnlyType: 'P412',
  /** [422] The event is not allowed in the current state; nothing changed. */
  eventNotAllowed: 'P422',
  /** [409] The process was changed concurrently (version mismatch); retry. */
  concurrentModification: 'P423',
  /** [500] A definition source could not be read (bad JSON file or row). */
  definitionSourceFailed: 'P500',
} as const;

export type ProcessErrorCode = (typeof ProcessErrorCodes)[keyof typeof ProcessErrorCodes];
