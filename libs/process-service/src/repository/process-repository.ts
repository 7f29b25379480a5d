/**
 * Persistence of processes through Kysely (PostgreSQL and PGlite, same SQL). Every function takes
 * the handle to use, so callers run them inside their own transaction.
 *
 * @example
 * const repo = makeProcessRepository();
 * await db.transaction().execute(async (trx) => {
 *   const process = await repo.findById(trx, id, { forUpdate: true });
 * });
 */
import type { Process, ProcessCompletedEvent, ProcessErrorRecord, SubProcessResult } from '@fw/process-api';
import {
  clearCountedInline,
  deleteChildReports,
  findReportedChildren,
  insertChildReport,
  insertChildReports,
  lockChildren,
  type ChildReport,
  type LockedChild,
} from './child-report-store';
import { makeProcessBatchRepository } from './process-batch-repository';
import { insertProcesses, updateProcess, type UpdateOptions } from './process-row-writer';
import type { ProcessDb } from './process-tables';
import { childResultPage, childResults, type ChildResultPage } from './child-result-reader';
import { findParents, findWithChildren } from './process-tree-reader';

export type { ChildReport, LockedChild } from './child-report-store';
export type { ChildResultPage } from './child-result-reader';
export type { UpdateOptions } from './process-row-writer';

export interface FindOptions {
  /** Lock the row (`select … for no key update`: every other writer waits) until the transaction ends. */
  forUpdate?: boolean;
}

export interface ProcessRepository {
  findById(db: ProcessDb, id: string, options?: FindOptions): Promise<Process | undefined>;
  /** Inserts processes; rows whose id (or predecessor/type pair) exists are skipped. Returns the inserted ids. */
  insertMany(db: ProcessDb, processes: readonly Process[]): Promise<Set<string>>;
  /**
   * Saves every column but `id` and `created_time`; `false` when the stored version is not
   * `expectedVersion`. `countedInline` marks a finishing child as counted on its parent in this
   * transaction (see {@link ProcessRepository.findReportedChildren}).
   */
  update(db: ProcessDb, process: Process, expectedVersion: number, options?: UpdateOptions): Promise<boolean>;
  insertErrors(db: ProcessDb, ownerId: string, errors: readonly ProcessErrorRecord[]): Promise<void>;
  /** `true` when the report is new (the child is counted now), `false` for a repeated report. */
  insertChildReport(db: ProcessDb, report: ChildReport): Promise<boolean>;
  /** Inserts many reports in one statement; returns the child ids whose report is new (counted now). */
  insertChildReports(db: ProcessDb, reports: readonly ChildReport[]): Promise<Set<string>>;
  /** Deletes the reports of these children (reports inserted in the same transaction and then not counted). */
  deleteChildReports(db: ProcessDb, childIds: readonly string[]): Promise<void>;
  /**
   * The children among `childIds` that have a report row: the inline counting, which marks its
   * children `counted_inline` instead of writing rows, skips these (counted by a command or an
   * HTTP caller) and clears their mark.
   */
  findReportedChildren(db: ProcessDb, childIds: readonly string[]): Promise<Set<string>>;
  /** Clears the `counted_inline` mark of children whose inline count did not happen after all. */
  clearCountedInline(db: ProcessDb, childIds: readonly string[]): Promise<void>;
  /** Locks processes (`for share`) and returns their parent and `counted_inline` mark (an HTTP report's check). */
  lockChildren(db: ProcessDb, ids: readonly string[]): Promise<Map<string, LockedChild>>;
  /** Parent ids of existing processes among `ids`. */
  findParents(db: ProcessDb, ids: readonly string[]): Promise<Map<string, string | null>>;
  insertCompletionEvent(db: ProcessDb, id: string, event: ProcessCompletedEvent, time: Date): Promise<void>;
  /** The process followed by its children (all descendants when `recursive`), or undefined. */
  findWithChildren(db: ProcessDb, id: string, recursive: boolean): Promise<Process[] | undefined>;
  /** Results of the terminal direct children of `parentId`, in creation order. */
  childResults(db: ProcessDb, parentId: string): Promise<SubProcessResult[]>;
  /** The first `limit` of those results, and whether more follow (`db` may be the caller's transaction). */
  childResultPage(db: ProcessDb, parentId: string, limit: number): Promise<ChildResultPage>;
}

/** Creates the Kysely-backed {@link ProcessRepository}. */
export function makeProcessRepository(): ProcessRepository {
  const batch = makeProcessBatchRepository();
  return {
    async findById(db, id, options = {}) {
      // The row and its errors in one statement (one round trip on every event's path).
      const [process] = (await batch.findMany(db, [id], options.forUpdate === true)).values();
      return process;
    },
    insertMany: insertProcesses,
    update: updateProcess,
    // One column mapping for both paths: the single-owner write is the set-based one with one owner.
    insertErrors: (db, ownerId, errors) =>
      batch.insertErrors(
        db,
        errors.map((error) => ({ ownerId, error })),
      ),
    insertChildReport,
    insertChildReports,
    deleteChildReports,
    findReportedChildren,
    clearCountedInline,
    lockChildren,
    findParents,
    insertCompletionEvent: (db, id, event, time) => batch.insertCompletionEvents(db, [{ id, event, time }]),
    findWithChildren,
    childResults,
    childResultPage,
  };
}
