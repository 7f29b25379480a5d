import type { SortCriterion } from './search-types';

/** The request settings a canned report remembers. */
export interface CannedReportSettings {
  filters?: Record<string, unknown>;
  sortCriteria?: SortCriterion[];
  fields?: string[];
  hiddenColumns?: string[];
}

/** A saved set of search settings, per tenant and query. */
export interface CannedReport {
  tenantId: string;
  queryName: string;
  name: string;
  /** Who saved it (`SearchContext.userId`), if known. */
  owner?: string;
  /** Published to everyone of the tenant (`publishCannedReportToEveryone`). */
  public: boolean;
  settings: CannedReportSettings;
  updatedAt: string;
}

/**
 * Storage port for canned reports, keyed by tenant, query and report name. The default is in
 * memory (lost on restart); `makeDatabaseCannedReportStore` keeps them in the table
 * `fw_query_canned_report`. Stores do not filter by user: who sees what is the service's rule.
 */
export interface CannedReportStore {
  get(tenantId: string, queryName: string, name: string): Promise<CannedReport | undefined>;
  /** Inserts or replaces (owner, public, settings, updatedAt) the report with the same tenant, query and name. */
  save(report: CannedReport): Promise<void>;
  /** Every report of the tenant and query, sorted by {@link compareCannedReportNames}. */
  list(tenantId: string, queryName: string): Promise<CannedReport[]>;
}

/**
 * The order of {@link CannedReportStore.list}: `localeCompare` of the names. Every store sorts
 * with this in JavaScript, so the order does not depend on a database's collation.
 */
export function compareCannedReportNames(a: CannedReport, b: CannedReport): number {
  return a.name.localeCompare(b.name);
}

/**
 * An in-memory {@link CannedReportStore}.
 *
 * @example
 * const store = makeInMemoryCannedReportStore();
 * await store.save({ tenantId: 't1', queryName: 'books', name: 'cheap', public: true,
 *   settings: { filters: { price: [0, 10] } }, updatedAt: new Date().toISOString() });
 */
export function makeInMemoryCannedReportStore(): CannedReportStore {
  const reports = new Map<string, CannedReport>();
  const key = (tenantId: string, queryName: string, name: string) => JSON.stringify([tenantId, queryName, name]);
  return {
    async get(tenantId, queryName, name) {
      const found = reports.get(key(tenantId, queryName, name));
      return found ? structuredClone(found) : undefined;
    },
    async save(report) {
      reports.set(key(report.tenantId, report.queryName, report.name), structuredClone(report));
    },
    async list(tenantId, queryName) {
      return [...reports.values()]
        .filter((r) => r.tenantId === tenantId && r.queryName === queryName)
        .map((r) => structuredClone(r))
        .sort(compareCannedReportNames);
    },
  };
}
