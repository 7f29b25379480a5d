import { FwError } from '@fw/core';

/**
 * Stable sub-error codes of the named query service (`Q7xx`). The HTTP status of each is fixed:
 * see {@link QueryErrorStatus}.
 *
 * @example
 * if (err.subErrorCode === QueryErrorCodes.filterNotAllowed) { ... }
 */
export const QueryErrorCodes = {
  /** 404: no definition with that name for the tenant. */
  unknownQuery: 'Q700',
  /** 500: the rows query failed (details only in the log). */
  queryFailed: 'Q721',
  /** 500: the count query failed (details only in the log). */
  countFailed: 'Q722',
  /** 400: no tenant in the request and no `query.defaultTenantId`. */
  tenantMissing: 'Q723',
  /** 400: the tenant is not a key of `query.datasources` (never a fallback). */
  tenantUnknown: 'Q724',
  /** 400: filter on an undeclared/non-filterable column, or a list where no list is allowed. */
  filterNotAllowed: 'Q725',
  /** 400: sort on an undeclared or non-sortable column. */
  sortNotAllowed: 'Q726',
  /** 400: unknown request field, wrong type, out-of-range value. */
  invalidRequest: 'Q727',
  /** 403: the host's authorizer refused the query's acls. */
  forbidden: 'Q728',
  /** 404: `cannedReportName` names no saved report of this tenant and query. */
  cannedReportNotFound: 'Q729',
  /** 504: a statement ran longer than its time limit and was cancelled. */
  statementTimeout: 'Q730',
  /** 413: an unpaginated JSON answer would exceed the query's `streamAbove` rows (ask for NDJSON). */
  tooManyRows: 'Q731',
} as const;

export type QueryErrorCode = (typeof QueryErrorCodes)[keyof typeof QueryErrorCodes];

/** HTTP status of every query error code. */
export const QueryErrorStatus: Readonly<Record<QueryErrorCode, number>> = {
  Q700: 404,
  Q721: 500,
  Q722: 500,
  Q723: 400,
  Q724: 400,
  Q725: 400,
  Q726: 400,
  Q727: 400,
  Q728: 403,
  Q729: 404,
  Q730: 504,
  Q731: 413,
};

/** One problem found while validating a request. */
export interface QueryProblem {
  subErrorCode: QueryErrorCode;
  description: string;
  params: unknown[];
  field?: string;
}

/** Builds an {@link FwError} for one query error code (status taken from {@link QueryErrorStatus}). */
export function queryError(
  subErrorCode: QueryErrorCode,
  description: string,
  params: unknown[] = [],
  field?: string,
  cause?: unknown,
): FwError {
  return new FwError({ code: QueryErrorStatus[subErrorCode], subErrorCode, description, params, field, cause });
}

/**
 * Turns collected problems into one FwError: the first problem is the headline, the rest are
 * details. Status 400 (all validation codes are 400).
 */
export function problemsError(problems: readonly QueryProblem[]): FwError {
  const [first, ...rest] = problems;
  return new FwError({
    code: QueryErrorStatus[first.subErrorCode],
    subErrorCode: first.subErrorCode,
    description: first.description,
    params: first.params,
    field: first.field,
    details: rest.map((p) => ({
      subErrorCode: p.subErrorCode,
      description: p.description,
      params: p.params,
      field: p.field,
    })),
  });
}
