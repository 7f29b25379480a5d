import type { ValidateFunction } from 'ajv';
import { describeSchemaErrors } from '../config/ajv-messages';
import { makeAjv } from '../config/ajv-factory';
import { problemsError, QueryErrorCodes, type QueryProblem } from '../errors/query-error-codes';
import { COUNT_MODES } from '../definition/query-definition-types';
import { type SearchRequest } from './search-types';

/** Largest accepted `pageNum` (keeps OFFSET a safe integer). */
export const MAX_PAGE_NUM = 2_147_483_647;

function requestSchema(maxRowsInPage: number) {
  const names = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 200 }, maxItems: 1000 };
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      pageNum: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NUM },
      numRowsInPage: { type: 'integer', minimum: 1, maximum: maxRowsInPage },
      filters: { type: 'object' },
      sortCriteria: {
        type: 'array',
        maxItems: 100,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: { name: { type: 'string', minLength: 1 }, ascendingOrder: { type: 'boolean' } },
        },
      },
      systemFilters: { type: 'object' },
      customVariables: { type: 'object' },
      countOnly: { type: 'boolean' },
      fields: names,
      hiddenColumns: names,
      cannedReportName: { type: 'string', minLength: 1, maxLength: 200 },
      saveChangesToCannedReport: { type: 'boolean' },
      publishCannedReportToEveryone: { type: 'boolean' },
      cursor: { type: 'string', minLength: 1, maxLength: 8192 },
      countMode: { type: 'string', enum: [...COUNT_MODES] },
    },
  };
}

/** Validates raw request bodies against the SearchRequest schema. */
export interface SearchRequestParser {
  /**
   * @throws FwError 400 Q727 listing every problem as a detail with its `field`
   *   (`pageNum`, `sortCriteria[0].name`, or the unknown property's name).
   */
  parse(body: unknown): SearchRequest;
}

/**
 * Builds a parser for a page-size limit. `null`/`undefined` bodies count as `{}`.
 *
 * @example
 * const parser = makeSearchRequestParser(1000);
 * parser.parse({ pageNum: 1, filters: { title: 'x' } });
 */
export function makeSearchRequestParser(maxRowsInPage: number): SearchRequestParser {
  const validate: ValidateFunction = makeAjv().compile(requestSchema(maxRowsInPage));
  return {
    parse(body) {
      const data = body === null || body === undefined ? {} : body;
      if (validate(data)) {
        const request = data as SearchRequest;
        if (request.cursor !== undefined && request.pageNum !== undefined) {
          throw problemsError([
            {
              subErrorCode: QueryErrorCodes.invalidRequest,
              description: 'Send either cursor or pageNum, not both',
              params: ['cursor'],
              field: 'cursor',
            },
          ]);
        }
        return request;
      }
      const problems: QueryProblem[] = describeSchemaErrors(validate.errors).map((p) => ({
        subErrorCode: QueryErrorCodes.invalidRequest,
        description:
          p.keyword === 'additionalProperties' ? `Unknown request field '${p.path}'` : `Invalid request: ${p.message}`,
        params: [p.path],
        field: p.path === '' ? undefined : p.path,
      }));
      throw problemsError(problems);
    },
  };
}
