import { queryError, QueryErrorCodes } from '../errors/query-error-codes';
import type { CannedReport, CannedReportStore } from '../search/canned-report-store';
import type { SearchRequest } from '../search/search-types';

function visibleTo(report: CannedReport, userId: string | undefined): boolean {
  return report.public || report.owner === undefined || userId === undefined || report.owner === userId;
}

/**
 * Canned reports in a search:
 * - `saveChangesToCannedReport` (needs `cannedReportName`, else Q727) stores the request's filters,
 *   sortCriteria, fields and hiddenColumns under that name (insert or replace);
 *   `publishCannedReportToEveryone` (only together with save, else Q727) marks it public.
 * - `cannedReportName` alone applies the saved settings; a field present in the request wins.
 *   Unknown name → 404 Q729.
 * - Reports are per tenant and query; one saved by another user and not published is invisible
 *   (and cannot be overwritten: 403 Q728). Without user ids every report of the tenant is visible.
 */
export interface CannedReportHandler {
  /** Returns the request with a saved report's settings applied (when it names one and does not save). */
  apply(
    request: SearchRequest,
    tenantId: string,
    queryName: string,
    userId: string | undefined,
  ): Promise<SearchRequest>;
  /** Stores the request's settings when it asks to save. Call after validation. */
  saveIfRequested(
    request: SearchRequest,
    tenantId: string,
    queryName: string,
    userId: string | undefined,
  ): Promise<void>;
  /** Names of the reports the caller sees for a tenant and query. */
  available(tenantId: string, queryName: string, userId: string | undefined): Promise<string[]>;
}

export function makeCannedReportHandler(store: CannedReportStore): CannedReportHandler {
  return {
    async apply(request, tenantId, queryName, userId) {
      if (request.saveChangesToCannedReport && request.cannedReportName === undefined) {
        throw queryError(
          QueryErrorCodes.invalidRequest,
          'saveChangesToCannedReport needs cannedReportName',
          ['cannedReportName'],
          'cannedReportName',
        );
      }
      if (request.publishCannedReportToEveryone && !request.saveChangesToCannedReport) {
        throw queryError(
          QueryErrorCodes.invalidRequest,
          'publishCannedReportToEveryone is only allowed together with saveChangesToCannedReport',
          ['publishCannedReportToEveryone'],
          'publishCannedReportToEveryone',
        );
      }
      const name = request.cannedReportName;
      if (name === undefined || request.saveChangesToCannedReport) return request;
      const report = await store.get(tenantId, queryName, name);
      if (!report || !visibleTo(report, userId)) {
        throw queryError(
          QueryErrorCodes.cannedReportNotFound,
          `Canned report '${name}' does not exist for query '${queryName}'`,
          [name, queryName],
          'cannedReportName',
        );
      }
      const s = report.settings;
      return {
        ...request,
        ...(request.filters === undefined && s.filters !== undefined ? { filters: s.filters } : {}),
        ...(request.sortCriteria === undefined && s.sortCriteria !== undefined ? { sortCriteria: s.sortCriteria } : {}),
        ...(request.fields === undefined && s.fields !== undefined ? { fields: s.fields } : {}),
        ...(request.hiddenColumns === undefined && s.hiddenColumns !== undefined
          ? { hiddenColumns: s.hiddenColumns }
          : {}),
      };
    },
    async saveIfRequested(request, tenantId, queryName, userId) {
      const name = request.cannedReportName;
      if (!request.saveChangesToCannedReport || name === undefined) return;
      const existing = await store.get(tenantId, queryName, name);
      if (existing && existing.owner !== undefined && userId !== undefined && existing.owner !== userId) {
        throw queryError(
          QueryErrorCodes.forbidden,
          `Canned report '${name}' belongs to another user`,
          [name, queryName],
          'cannedReportName',
        );
      }
      await store.save({
        tenantId,
        queryName,
        name,
        ...((existing?.owner ?? userId) !== undefined ? { owner: existing?.owner ?? userId } : {}),
        public: request.publishCannedReportToEveryone ?? existing?.public ?? false,
        settings: {
          ...(request.filters === undefined ? {} : { filters: request.filters }),
          ...(request.sortCriteria === undefined ? {} : { sortCriteria: request.sortCriteria }),
          ...(request.fields === undefined ? {} : { fields: request.fields }),
          ...(request.hiddenColumns === undefined ? {} : { hiddenColumns: request.hiddenColumns }),
        },
        updatedAt: new Date().toISOString(),
      });
    },
    async available(tenantId, queryName, userId) {
      return (await store.list(tenantId, queryName)).filter((r) => visibleTo(r, userId)).map((r) => r.name);
    },
  };
}
