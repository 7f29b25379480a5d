/**
 * The input policy of every entry point that creates or names processes: the `/process` routes
 * here, and the administration API of `@fw/process-management`, which builds its request schemas
 * from these same fields. What one entry point refuses (an empty or blank-edged name, an empty
 * trigger id, a value over its limit, a malformed id) the other refuses too, so no route stores
 * what another route's answers cannot show.
 *
 * @example
 * const body = { type: 'object', properties: { processDefName: processTypeName('The definition to start') } };
 */

type Schema = Record<string, unknown>;

/** Longest process type (definition name), crontab name or name reference. */
export const NAME_MAX_LENGTH = 200;
/** Longest client key of a manual trigger; it is stored as `manual:<tenant>:<key>`. */
export const MAX_TRIGGER_ID_LENGTH = 80;
/**
 * Longest trigger id a process may carry: room for `manual:<tenant>:<key>` (tenants are up to 128
 * characters) and for the ids other ingresses give (`cron:<id>:<time>`, an external system's key).
 */
export const STORED_TRIGGER_ID_MAX_LENGTH = 512;
/** Longest description of a process. */
export const DESCRIPTION_MAX_LENGTH = 1000;

/** Names and ids may not start or end with blanks (such names cannot be told apart in a list), nor be empty. */
export const NO_OUTER_BLANKS = '^\\S(?:[\\s\\S]*\\S)?$';
/** A UUID in its usual text form (ids of processes, children and crontabs). */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** How a failed `pattern` of these fields reads in a 400 message (`'triggerId' must not start or end with blanks`). */
export const INPUT_PATTERN_MESSAGES: ReadonlyMap<string, string> = new Map([
  [NO_OUTER_BLANKS, 'must not start or end with blanks'],
  [UUID_PATTERN, 'must be a UUID'],
]);

/** A process type (definition name). */
export function processTypeName(description: string): Schema {
  return { type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH, pattern: NO_OUTER_BLANKS, description };
}

/** The trigger id a process is created with (null or absent: none). */
export function storedTriggerId(description: string): Schema {
  return {
    type: ['string', 'null'],
    minLength: 1,
    maxLength: STORED_TRIGGER_ID_MAX_LENGTH,
    pattern: NO_OUTER_BLANKS,
    description,
  };
}

/** The description of a process (free text; null or absent: none). */
export function processDescription(description: string): Schema {
  return { type: ['string', 'null'], maxLength: DESCRIPTION_MAX_LENGTH, description };
}

/** The args of a new process: any object (the definition's inputSchema says more), or null. */
export function processArgs(description: string): Schema {
  return { type: ['object', 'null'], additionalProperties: true, description };
}
