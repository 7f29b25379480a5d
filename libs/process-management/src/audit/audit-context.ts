/**
 * The audit row of the change a request makes, shared between the operation gate (which writes
 * it when the handler is done, failed or refused) and handlers that have it written inside the
 * transaction of their change, so both commit or neither does.
 *
 * @example
 * const created = await auditedChange(res, (inTransaction) => store.insert(def, inTransaction));
 * // the row committed with the definition; the gate writes no second one
 */
import type { Response } from 'express';
import type { AuditHandle, AuditRecord, AuditStore } from './audit-store';

/** Writes the `ok` row of the request on the transaction of its change. */
export type AuditInTransaction = (trx: AuditHandle) => Promise<void>;

interface PendingAudit {
  store: AuditStore;
  entry: Omit<AuditRecord, 'outcome'>;
  /** `written`: inserted in a transaction not known to have committed; `committed`: stored with the change. */
  state: 'open' | 'written' | 'committed';
}

const AUDIT_LOCAL = 'fwManagementAudit';
const TARGET_LOCAL = 'fwManagementAuditTarget';

/** Opens the pending row of an audited request. */
export function openAudit(res: Response, store: AuditStore, entry: Omit<AuditRecord, 'outcome'>): void {
  const pending: PendingAudit = { store, entry, state: 'open' };
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
 * Runs a change that takes the audit row's writer (undefined when the request is not audited) and
 * calls it inside its transaction. Once `change` has resolved that transaction has committed, and
 * the row with it; when `change` rejects, the transaction rolled back and the row is forgotten, so
 * the gate writes the `failed` row in a transaction of its own.
 */
export async function auditedChange<T>(
  res: Response,
  change: (inTransaction: AuditInTransaction | undefined) => Promise<T>,
): Promise<T> {
  const pending = pendingOf(res);
  if (pending === undefined) return change(undefined);
  const inTransaction: AuditInTransaction = async (trx) => {
    await pending.store.record({ ...pending.entry, outcome: 'ok' }, trx);
    pending.state = 'written';
  };
  try {
    const result = await change(inTransaction);
    if (pending.state === 'written') pending.state = 'committed';
    return result;
  } catch (err) {
    pending.state = 'open';
    throw err;
  }
}

/** Whether the `ok` row was stored with the change (the gate then writes none). */
export function auditCommittedWithChange(res: Response): boolean {
  return pendingOf(res)?.state === 'committed';
}
