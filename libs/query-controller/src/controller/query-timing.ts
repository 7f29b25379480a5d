/**
 * `fw_query_duration_seconds{tenant,query}` of one `/q/{name}` search (answer or stream, until the
 * last row is written). A label value only for names the catalog knows: a search refused before its
 * definition was found (`Q700` unknown query, `Q723`/`Q724` tenant missing or unknown) records
 * nothing, so names and tenants a caller makes up never become series.
 */
import { isFwError } from '@fw/core';
import { QueryErrorCodes } from '@fw/query-core';
import type { FwMetrics } from '@fw/telemetry';

/** Codes answered before the definition is found: the name (or tenant) is not one of the catalog's. */
const UNNAMED_FAILURES: ReadonlySet<string> = new Set([
  QueryErrorCodes.unknownQuery,
  QueryErrorCodes.tenantMissing,
  QueryErrorCodes.tenantUnknown,
]);

/** Whether a failed search still names a catalog query (its definition was found before it failed). */
function namesCatalogQuery(error: unknown): boolean {
  return !(isFwError(error) && UNNAMED_FAILURES.has(String(error.subErrorCode)));
}

/**
 * Runs `search` and records its duration in `metrics` (when given) under `tenant` and `query`,
 * for a success and for a failure after the definition was found; the outcome is passed on as is.
 */
export async function timeQuery<T>(
  metrics: Pick<FwMetrics, 'queryExecuted'> | undefined,
  labels: { tenant: string | undefined; query: string },
  search: () => Promise<T>,
): Promise<T> {
  if (!metrics) return search();
  const started = process.hrtime.bigint();
  const record = (): void =>
    metrics.queryExecuted({
      tenant: labels.tenant,
      query: labels.query,
      durationSeconds: Number(process.hrtime.bigint() - started) / 1e9,
    });
  try {
    const result = await search();
    record();
    return result;
  } catch (error) {
    if (namesCatalogQuery(error)) record();
    throw error;
  }
}
