/**
 * The audit trail in `fw_admin_audit` (append-only: rows are inserted, never changed). A row can
 * be written on any Kysely handle, so a change and its row commit together when the change runs
 * in a transaction of this package.
 *
 * @example
 * const audit = makeAuditStore(database.db);
 * await audit.record({ actor: 'jwt:alice', credential: 'jwt', tenant: 'acme', action: 'addCrontab', target: 'nightly', outcome: 'ok', requestId });
 * await audit.list({ tenant: 'acme', actor: 'jwt:alice' }, { page: 0, size: 25 });
 */
import type { Generated, Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { pageOf, type Page, type PageRequest } from '../http/pagination';
import type { AuditOutcome } from './audit-schemas';

interface FwAdminAuditTable {
  id: string;
  seq: Generated<string>;
  occurred_at: Generated<Date>;
  actor: string;
  credential: string | null;
  tenant: string | null;
  action: string;
  target: string | null;
  outcome: string;
  request_id: string;
}

/** The table of `migrations/0011_admin_audit.sql`. */
export interface AuditTables {
  fw_admin_audit: FwAdminAuditTable;
}

/** Tables the audit trail needs (hosts check them at start-up). */
export const AUDIT_TABLES: readonly string[] = ['fw_admin_audit'];

/** What is recorded for one change. */
export interface AuditRecord {
  /** `key:<fingerprint>`, `jwt:<sub>`, or `anonymous` for a refused request whose caller is unknown. */
  actor: string;
  /** The kind of credential; null for a request that presented none (refused). */
  credential: 'key' | 'jwt' | null;
  tenant: string | null;
  action: string;
  target: string | null;
  outcome: AuditOutcome;
  requestId: string;
}

/** A stored entry, as `GET /audit` answers it. */
export interface AuditEntry extends AuditRecord {
  id: string;
  time: string;
}

export interface AuditFilter {
  tenant: string;
  actor?: string;
  action?: string;
  /** At or after. */
  from?: Date;
  /** Before. */
  to?: Date;
}

/** Any Kysely handle (the pool or a transaction), seen with the audit table. */
export type AuditHandle = { transaction: unknown; selectFrom: unknown };

export interface AuditStore {
  /** Inserts one row, on `handle` when given (a transaction of the change). */
  record(entry: AuditRecord, handle?: AuditHandle): Promise<void>;
  /** A page of the tenant's entries, newest first. */
  list(filter: AuditFilter, page: PageRequest): Promise<Page<AuditEntry>>;
  /**
   * Deletes up to `limit` of the oldest entries written before `cutoff` in ONE statement (entries
   * another transaction is deleting are skipped); the number deleted. The history sweeper calls it.
   */
  purgeBefore(cutoff: Date, limit: number): Promise<number>;
}

function auditDb(handle: AuditHandle): Kysely<AuditTables> {
  return handle as unknown as Kysely<AuditTables>;
}

export function makeAuditStore(db: AuditHandle): AuditStore {
  const base = auditDb(db);
  return {
    async record(entry, handle) {
      await auditDb(handle ?? db)
        .insertInto('fw_admin_audit')
        .values({
          id: randomUUID(),
          actor: entry.actor,
          credential: entry.credential,
          tenant: entry.tenant,
          action: entry.action,
          target: entry.target,
          outcome: entry.outcome,
          request_id: entry.requestId,
        })
        .execute();
    },
    async list(filter, request) {
      let query = base.selectFrom('fw_admin_audit').where('tenant', '=', filter.tenant);
      if (filter.actor !== undefined) query = query.where('actor', '=', filter.actor);
      if (filter.action !== undefined) query = query.where('action', '=', filter.action);
      if (filter.from !== undefined) query = query.where('occurred_at', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('occurred_at', '<', filter.to);
      const [rows, total] = await Promise.all([
        query
          .selectAll()
          .orderBy('occurred_at', 'desc')
          .orderBy('seq', 'desc')
          .limit(request.size)
          .offset(request.page * request.size)
          .execute(),
        query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const content = rows.map((r): AuditEntry => ({
        id: r.id,
        time: new Date(r.occurred_at).toISOString(),
        actor: r.actor,
        credential: r.credential === null ? null : r.credential === 'jwt' ? 'jwt' : 'key',
        tenant: r.tenant,
        action: r.action,
        target: r.target,
        outcome: r.outcome as AuditOutcome,
        requestId: r.request_id,
      }));
      return pageOf(content, Number(total.n), request);
    },
    async purgeBefore(cutoff, limit) {
      const oldest = base
        .selectFrom('fw_admin_audit')
        .select('id')
        .where('occurred_at', '<', cutoff)
        .orderBy('occurred_at')
        .limit(limit)
        .forUpdate()
        .skipLocked();
      const result = await base.deleteFrom('fw_admin_audit').where('id', 'in', oldest).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
