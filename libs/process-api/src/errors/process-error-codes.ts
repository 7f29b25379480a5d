/**
 * Sub-error codes (`subErrorCode` of the framework envelope) owned by the process service:
 * `P` and three digits from `P001`, numbered in order, never an HTTP status (the status of each
 * is given in brackets; the status is the envelope's `code`). Codes renamed from their former
 * spelling (`P404`…`P500`, which read like statuses they were not) carry the old one as
 * `legacyCode` for one release (see `ERROR_CODE_ALIASES` of `@fw/core`).
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
  processNotFound: 'P004', // formerly P404
  /** [422] The event id is not one of the process flow's events. */
  unknownEvent: 'P005', // formerly P405
  /** [409] A requested `childId` already belongs to another process. */
  childIdConflict: 'P006', // formerly P409
  /** [400] A reported `childId` is not a child of the process. */
  notAChild: 'P007', // formerly P410
  /** [400] A child's definition names a `parentProcessType` other than the splitting process's type. */
  parentTypeMismatch: 'P008', // formerly P411
  /** [400] A root process (create, trigger, cron) of a type that can only be a child (`parentProcessType`). */
  childOnlyType: 'P009', // formerly P412
  /** [422] The event is not allowed in the current state; nothing changed. */
  eventNotAllowed: 'P010', // formerly P422
  /** [409] The process was changed concurrently (version mismatch); retry. */
  concurrentModification: 'P011', // formerly P423
  /** [500] A definition source could not be read (bad JSON file or row). */
  definitionSourceFailed: 'P012', // formerly P500
} as const;

export type ProcessErrorCode = (typeof ProcessErrorCodes)[keyof typeof ProcessErrorCodes];
