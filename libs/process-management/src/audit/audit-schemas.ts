/**
 * JSON Schemas and query parameters of the audit trail (`GET /audit`) and of the caller's own
 * view (`GET /me`), joined to the document's components by `admin-api-document.ts`.
 */
import { ROLES } from '../access/access-roles';
import { MAX_PAGE_SIZE } from '../http/pagination';
import { FILTER_MAX_LENGTH, QUERY_PARAMETERS, type QueryParameter } from '../openapi/admin-api-request-schemas';
import { arrayOf, enumOf, instant, object, orNull, ref, text, type JsonSchema } from '../openapi/json-schema';

/** Outcomes of an audited change. */
export const AUDIT_OUTCOMES = ['ok', 'refused', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Kinds of credential. */
export const CREDENTIAL_KINDS = ['key', 'jwt'] as const;

/** The filters of `GET /audit`, with paging. */
export const AUDIT_QUERY_PARAMETERS: readonly QueryParameter[] = [
  {
    name: 'actor',
    description: 'Exactly this actor (`key:<fingerprint>` or `jwt:<sub>`)',
    schema: text({ maxLength: FILTER_MAX_LENGTH }),
  },
  {
    name: 'action',
    description: 'Exactly this action (the operationId of the change, e.g. addCrontab)',
    schema: text({ maxLength: FILTER_MAX_LENGTH }),
  },
  // A template literal: the word followed by a quote reads as an import to the dependency check of pack-check.
  { name: `from`, description: 'Entries at or after this instant (ISO-8601 with zone)', schema: instant },
  { name: 'to', description: 'Entries before this instant (ISO-8601 with zone)', schema: instant },
  QUERY_PARAMETERS.page,
  QUERY_PARAMETERS.size,
];

/**
 * Component schemas of the audit trail and the caller's view. Not widened to `JsonSchema`: the
 * wire types of `GET /me` and `GET /audit` are read from them (`admin-api-wire-types.ts`).
 */
export const ACCESS_SCHEMAS = {
  AuditEntry: object(
    {
      id: text({ description: 'Entry id (UUID)' }),
      time: { ...instant, description: 'When the change was answered' },
      actor: text({
        description:
          '`key:<fingerprint>` for a key (never the key), `jwt:<sub>` for a token, `anonymous` for a refused request whose caller is not known',
      }),
      credential: orNull(
        enumOf(CREDENTIAL_KINDS, 'The kind of credential presented; null when a refused request presented none'),
      ),
      tenant: orNull(text({ description: 'The tenant of the request' })),
      action: text({ description: 'The operationId of the change' }),
      target: orNull(
        text({ minLength: 0, description: 'What was changed: crontab id, definition name, trigger id, process id' }),
      ),
      outcome: enumOf(
        AUDIT_OUTCOMES,
        'ok: done; refused: the role or tenant scope did not allow it; failed: the request or the change failed',
      ),
      requestId: text({ description: 'The request id (X-Request-Id)' }),
    },
    { extra: { description: 'One change requested through the administration API' } },
  ),
  AuditPage: object(
    {
      content: arrayOf(ref('AuditEntry'), { maxItems: MAX_PAGE_SIZE }),
      totalElements: { type: 'integer', minimum: 0 },
      page: { type: 'integer', minimum: 0 },
      size: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
      totalPages: { type: 'integer', minimum: 0 },
    },
    { extra: { description: 'One page of AuditEntrys' } },
  ),
  Caller: object(
    {
      actor: text(),
      credential: enumOf(CREDENTIAL_KINDS),
      role: orNull(enumOf(ROLES)),
      tenants: arrayOf(text(), { description: 'The tenants the caller may see; ["*"] for every tenant' }),
      operations: arrayOf(text(), {
        description:
          'The operationIds the caller’s role allows (a narrower form counts: an operator may switch crontabs on and off)',
      }),
    },
    { extra: { description: 'The caller as the server sees it' } },
  ),
} satisfies Record<string, JsonSchema>;
