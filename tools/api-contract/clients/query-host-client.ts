/**
 * A small typed client of the query host's demo, on the types openapi-typescript generates from
 * its `/openapi.json` (`.generated/query-host.ts`) and on openapi-fetch: compiled by a strict
 * `tsc` and run against a live host.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../.generated/query-host';

/** What the calls returned, for the test to check. */
export interface QueryExercise {
  titles: unknown[];
  rowKeys: string[];
  services: string[];
}

/** Runs the `books` query with a filter, a sort and a page, and reads the host's description. */
export async function exerciseQueryHost(baseUrl: string, tenant: string): Promise<QueryExercise> {
  const client = createClient<paths>({ baseUrl, headers: { 'x-fw-tenant-id': tenant } });
  const books = await client.POST('/q/books', {
    body: {
      filters: { genre: ['scifi', 'fantasy'] },
      sortCriteria: [{ name: 'title', ascendingOrder: true }],
      pageNum: 1,
      numRowsInPage: 5,
    },
  });
  if (books.data === undefined) throw new Error(`books answered ${books.response.status}`);
  const rows = books.data.payload.list.map((item) => item.row);
  const info = await client.GET('/info');
  if (info.data === undefined) throw new Error(`/info answered ${info.response.status}`);
  return {
    titles: rows.map((row) => row['title']),
    rowKeys: Object.keys(rows[0] ?? {}),
    services: info.data.payload.services.map((s) => s.name),
  };
}
