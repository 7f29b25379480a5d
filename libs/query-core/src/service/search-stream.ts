import type { QueryExecutionProvider, QueryExecutionRequest, RowBatchStream } from '../provider/query-provider-types';
import { queryError, QueryErrorCodes } from '../errors/query-error-codes';
import type { SearchRequest } from '../search/search-types';
import { project } from './search-response-builder';

type Row = Record<string, unknown>;

/** The last line of a stream: how many rows it sent and whether the definition's `maxRows` cut it off. */
export interface StreamSummary {
  rows: number;
  truncated: boolean;
}

/**
 * The rows of a streamed search, batch by batch (each row as a search response's `row`), read
 * from the database only as fast as they are asked for.
 *
 * @example
 * const stream = await service.stream('books', { filters: { genre: 'scifi' } }, { tenantId: 't1' });
 * try { for (let b = await stream.next(); b; b = await stream.next()) write(b); } finally { await stream.close(); }
 * stream.summary(); // { rows: 12000, truncated: false }
 */
export interface SearchStream {
  /** The next rows (never an empty batch), or undefined at the end. */
  next(): Promise<Row[] | undefined>;
  /** Rows handed out so far, and whether `maxRows` stopped the stream. */
  summary(): StreamSummary;
  /** Stops reading and frees the connection; safe after the end and twice. */
  close(): Promise<void>;
}

/** Request fields that only make sense for a page; a stream refuses them rather than ignoring them. */
const PAGE_FIELDS = ['pageNum', 'numRowsInPage', 'cursor', 'countOnly', 'countMode'] as const;

/** @throws FwError 400 Q727 naming the first page-only field the request has. */
export function assertStreamable(request: SearchRequest): void {
  const field = PAGE_FIELDS.find((f) => request[f] !== undefined);
  if (field)
    throw queryError(
      QueryErrorCodes.invalidRequest,
      `'${field}' does not apply to a streamed answer, which holds every row; leave it out`,
      [field],
      field,
    );
}

/** A provider without streaming: its whole answer as one batch. */
async function bufferedBatches(
  provider: QueryExecutionProvider,
  request: QueryExecutionRequest,
): Promise<RowBatchStream> {
  let rows: Row[] | undefined = (await provider.execute(request)).rows;
  return {
    next: async () => {
      const batch = rows && rows.length > 0 ? rows : undefined;
      rows = undefined;
      return batch;
    },
    close: async () => {
      rows = undefined;
    },
  };
}

/**
 * Opens the stream of `request` (mode `rows`, no page) on `provider`, cut off after `maxRows`
 * rows. Resolves once the statement runs, so its failure is still an ordinary error answer.
 */
export async function openSearchStream(
  provider: QueryExecutionProvider,
  request: QueryExecutionRequest,
  maxRows: number | undefined,
  fields: readonly string[] | undefined,
): Promise<SearchStream> {
  const source = provider.stream ? await provider.stream(request) : await bufferedBatches(provider, request);
  let sent = 0;
  let truncated = false;
  let ended = false;
  const finish = async () => {
    ended = true;
    await source.close();
  };
  return {
    async next() {
      if (ended) return undefined;
      const batch = await source.next();
      if (!batch) {
        await finish();
        return undefined;
      }
      let rows = batch;
      if (maxRows !== undefined && sent + rows.length >= maxRows) {
        // Exactly maxRows so far: one more row (if any) decides whether the stream was cut.
        truncated = sent + rows.length > maxRows || (await source.next()) !== undefined;
        rows = rows.slice(0, maxRows - sent);
        await finish();
      }
      sent += rows.length;
      return fields ? rows.map((row) => project(row, fields)) : rows;
    },
    summary: () => ({ rows: sent, truncated }),
    close: finish,
  };
}
