/** JSON Schemas of the path parameters of workflow operations. */

/** An entity id: a UUID in either case. */
export const ID_SCHEMA = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
};

/** A flow, state or event id. */
export const NAME_SCHEMA = { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,128}$' };
