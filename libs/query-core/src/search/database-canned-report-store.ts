import type { Database } from '@fw/core';
import { sql } from 'kysely';
import {
  type CannedReport,
  type CannedReportSettings,
  type CannedReportStore,
  compareCannedReportNames,
} from './canned-report-store';

/** The table of {@link makeDatabaseCannedReportStore} (`migrations/0007_query_canned_report.sql`). */
export const CANNED_REPORT_TABLE = 'fw_query_canned_report';

/** What {@link makeDatabaseCannedReportStore} needs. */
export interface DatabaseCannedReportStoreOptions {
  /**
   * A writable database holding {@link CANNED_REPORT_TABLE} (apply the migrations with
   * `npm run migrate`). The caller owns it: the store never closes it.
   */
  database: Database;
}

/** A row of `fw_query_canned_report` as both drivers return it. */
interface CannedReportRow {
  tenant_id: string;
  query_name: string;
  name: string;
  owner: string | null;
  public: boolean;
  /** jsonb: parsed by the driver; a string only from a hand-built `Database` without that parser. */
  settings: CannedReportSettings | string;
  /** timestamptz: a Date from `pg` and PGlite. */
  updated_at: Date | string;
}

/** The columns {@link reportOf} reads, in both queries. */
const REPORT_COLUMNS = sql.raw('tenant_id, query_name, name, owner, public, settings, updated_at');

function reportOf(row: CannedReportRow): CannedReport {
  return {
    tenantId: row.tenant_id,
    queryName: row.query_name,
    name: row.name,
    // The in-memory store keeps a report saved without owner without the key; so does this one.
    ...(row.owner === null ? {} : { owner: row.owner }),
    public: row.public,
    settings: typeof row.settings === 'string' ? (JSON.parse(row.settings) as CannedReportSettings) : row.settings,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/**
 * `updatedAt` goes into a timestamptz column, so it must be a date-time; it comes back as
 * `Date#toISOString()` (the form the service writes, which therefore round-trips unchanged).
 */
function updatedAtOf(report: CannedReport): string {
  const time = new Date(report.updatedAt);
  if (Number.isNaN(time.getTime())) {
    throw new TypeError(
      `Canned report '${report.name}': updatedAt must be an ISO-8601 date-time (got ${JSON.stringify(report.updatedAt)})`,
    );
  }
  return time.toISOString();
}

/**
 * A durable {@link CannedReportStore} over the table `fw_query_canned_report`, with the same
 * semantics as `makeInMemoryCannedReportStore`: one report per tenant, query and name; `save`
 * replaces its owner, public flag, settings and updatedAt in one `insert … on conflict do update`
 * (atomic: concurrent saves of one name leave one row, the last writer's; `created_at` keeps
 * the first save's time); `list` returns every report of the tenant and query, sorted by name.
 * Settings are stored as jsonb, so key order inside `filters` is not kept (values are).
 *
 * One database serves every tenant (the `tenant_id` column), not the tenants' query databases:
 * those are read-only accounts, and the reports must be writable.
 *
 * @example
 * const database = createDatabase({ url: 'postgres://app@db/reports' });
 * await assertTablesExist(database, [CANNED_REPORT_TABLE]); // fails naming `npm run migrate`
 * const service = await makeQueryService({ config, baseDir: __dirname,
 *   cannedReportStore: makeDatabaseCannedReportStore({ database }) });
 * // ... and after service.close(): await database.close();
 */
export function makeDatabaseCannedReportStore(options: DatabaseCannedReportStoreOptions): CannedReportStore {
  const { db } = options.database;
  return {
    async get(tenantId, queryName, name) {
      const { rows } = await sql<CannedReportRow>`
        select ${REPORT_COLUMNS}
          from fw_query_canned_report
         where tenant_id = ${tenantId} and query_name = ${queryName} and name = ${name}`.execute(db);
      return rows.length === 0 ? undefined : reportOf(rows[0]);
    },
    async save(report) {
      // Parameters are strings with explicit casts: pg would send a JS array as a PostgreSQL
      // array, and the JSON text keeps both drivers on the same path.
      await sql`
        insert into fw_query_canned_report (tenant_id, query_name, name, owner, public, settings, updated_at)
        values (${report.tenantId}, ${report.queryName}, ${report.name}, ${report.owner ?? null}, ${report.public},
                cast(${JSON.stringify(report.settings)} as jsonb), cast(${updatedAtOf(report)} as timestamptz))
        on conflict (tenant_id, query_name, name) do update
           set owner = excluded.owner, public = excluded.public, settings = excluded.settings, updated_at = excluded.updated_at`.execute(
        db,
      );
    },
    async list(tenantId, queryName) {
      const { rows } = await sql<CannedReportRow>`
        select ${REPORT_COLUMNS}
          from fw_query_canned_report
         where tenant_id = ${tenantId} and query_name = ${queryName}`.execute(db);
      return rows.map(reportOf).sort(compareCannedReportNames);
    },
  };
}
