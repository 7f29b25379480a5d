/**
 * The audit row of the change a request makes, shared between the operation gate (which writes
 * it when the handler is done, failed or refused) and handlers that write it themselves inside
 * the transaction of their change, so both commit or neither does.
 *
 * @example
 * setAuditTarget(res, created.id);
 * await store.insert(def, auditInTransaction(res));   // the row commits with the definition
 */
import type { Response } from 'express';
import type { AuditRecord, AuditStore } from './audit-store';

interface PendingAudit {
  store: AuditStore;
  entry: Omit<AuditRecord, 'outcome'>;
  /** Set once the row was written with the change. */
  written: boolean;
}

const AUDIT_LOCAL = 'fwManagementAudit';
const TARGET_LOCAL = 'fwManagementAuditTarget';

/** Opens the pending row of an audited request. */
export function openAudit(res: Response, store: AuditStore, entry: Omit<AuditRecord, 'outcome'>): void {
  const pending: PendingAudit = { store, entry, written: false };
  res.locals[AUDIT_LOCAL] = pending;
}

function pendingOf(res: Response): PendingAudit | undefined {
  const pending: unknown = res.locals[AUDIT_LOCAL];
  return typeof pending === 'object' && pending !== null ? (pending as PendingAudit) : undefined;
}

/** Names what the change is about when the path does not (a created crontab's id, the stored trigger id). */
export function setAuditTarget(res: Response, target: string): void {
  res.locals[TARGET_LOCAL] = target;
  const pending = pendingOf(res);
  if (pending !== undefined) pending.entry = { ...pending.entry, target };
}

/** The target a handler named, if any. */
export function auditTargetOf(res: Response): string | undefined {
  const target: unknown = res.locals[TARGET_LOCAL];
  return typeof target === 'string' ? target : undefined;
}

/**
 * A callback writing the `ok` row on the transaction of the change (undefined when the request
 * is not audited): pass it to a store that runs the change in a transaction.
 */
export function auditInTransaction(
  res: Response,
): ((trx: Parameters<AuditStore['record']>[1]) => Promise<void>) | undefined {
  const pending = pendingOf(res);
  if (pending === undefined) return undefined;
  return async (trx) => {
    await pending.store.record({ ...pending.entry, outcome: 'ok' }, trx);
    pending.written = true;
  };
}

/** Whether the row was written with the change; cleared when the change failed after all (its transaction rolled back). */
export function auditWrittenWithChange(res: Response): boolean {
  return pendingOf(res)?.written === true;
}

/** Forgets a row written in a transaction that rolled back. */
export function auditRolledBack(res: Response): void {
  const pending = pendingOf(res);
  if (pending !== undefined) pending.written = false;
}
