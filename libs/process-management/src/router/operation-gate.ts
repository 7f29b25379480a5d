/**
 * What happens around every handler of the administration API once its operation is known: the
 * caller's role against the operation table and the tenant against the caller's scope (403),
 * then the request against the operation's schemas (400), then the handler — and, for changes,
 * the audit row: `refused` for a 403, `failed` for any other error, `ok` when the handler is done.
 * A handler whose change runs in a transaction has the `ok` row written in it (`auditedChange`),
 * so the change and its row commit together; the gate then writes none, and after a change that
 * rolled back it writes the `failed` row in a transaction of its own. The answer of a change
 * leaves only after its row is stored (the handler's `end` is held back until then), so a client
 * reading the trail after an answer finds the change in it.
 *
 * @example
 * const gate = makeOperationGate({ audit: makeAuditStore(db), logger });
 * router.post('/crontabs', gate(op, problemOf, handler));
 */
import type { Logger } from '@fw/core';
import type { Request, RequestHandler, Response } from 'express';
import { authorizationProblem } from '../access/access-guard';
import { callerOf } from '../access/caller';
import { isAudited, requiredRoleFor } from '../access/operation-access-table';
import { auditCommittedWithChange, auditTargetOf, openAudit } from '../audit/audit-context';
import type { AuditOutcome } from '../audit/audit-schemas';
import type { AuditStore } from '../audit/audit-store';
import { forbidden } from '../http/management-errors';
import type { AdminApiOperation } from '../openapi/admin-api-operations';
import { requestIdOf } from './request-id';
import { tenantOf } from './request-values';

export interface OperationGateOptions {
  audit: AuditStore;
  logger: Logger;
}

/** Wraps a handler: authorisation, the request check, the handler, the audit row. */
export type OperationGate = (
  op: AdminApiOperation,
  problemOf: (req: Request) => Error | undefined,
  handler: RequestHandler,
) => RequestHandler;

/** The path's own id or name, else a field of the body naming what is changed. */
function targetOf(req: Request, res: Response): string | null {
  const named = auditTargetOf(res);
  if (named !== undefined) return named;
  const params = req.params as Record<string, string | undefined>;
  const fromPath = params.id ?? params.name;
  if (fromPath !== undefined) return fromPath;
  const body = req.body as Record<string, unknown> | undefined;
  for (const field of ['processType', 'name', 'triggerId']) {
    const value = body?.[field];
    if (typeof value === 'string') return value;
  }
  return null;
}

/** Holds the answer back: `end` is recorded, then replayed by `release` or dropped by `discard` (an error answer follows). */
function holdAnswer(res: Response): { release(): void; discard(): void } {
  const end = res.end.bind(res);
  let held: unknown[] | undefined;
  res.end = ((...args: unknown[]) => {
    held = args;
    return res;
  }) as Response['end'];
  return {
    release: () => {
      res.end = end;
      if (held !== undefined) (end as (...args: unknown[]) => Response)(...held);
    },
    discard: () => {
      res.end = end;
    },
  };
}

export function makeOperationGate(options: OperationGateOptions): OperationGate {
  return (op, problemOf, handler) => {
    const audited = isAudited(op.method);
    return async (req, res, next) => {
      const caller = callerOf(res);
      const tenant = op.tenant ? tenantOf(res) : null;
      const record = async (outcome: AuditOutcome): Promise<void> => {
        if (!audited) return;
        try {
          await options.audit.record({
            actor: caller.actor,
            credential: caller.credential,
            tenant,
            action: op.operationId,
            target: targetOf(req, res),
            outcome,
            requestId: requestIdOf(res),
          });
        } catch (err) {
          options.logger.error(
            { err, action: op.operationId, outcome, requestId: requestIdOf(res) },
            'administration API: the audit row could not be written',
          );
          if (outcome === 'ok') throw err;
        }
      };
      const refusal = authorizationProblem(caller, requiredRoleFor(op.method, op.path, req.body), tenant ?? undefined);
      if (refusal !== undefined) {
        await record('refused');
        throw forbidden(refusal);
      }
      const problem = problemOf(req);
      if (problem !== undefined) {
        await record('failed');
        throw problem;
      }
      if (!audited) {
        await handler(req, res, next);
        return;
      }
      openAudit(res, options.audit, {
        actor: caller.actor,
        credential: caller.credential,
        tenant,
        action: op.operationId,
        target: targetOf(req, res),
        requestId: requestIdOf(res),
      });
      const answer = holdAnswer(res);
      try {
        await handler(req, res, next);
      } catch (err) {
        answer.release();
        // A change that committed with its row stays `ok`: what failed came after it (a scheduler reload).
        if (!auditCommittedWithChange(res)) await record('failed');
        throw err;
      }
      if (auditCommittedWithChange(res)) return answer.release();
      try {
        await record('ok');
      } catch (err) {
        // No answer without its row: the error middleware answers 500 instead of the held one.
        answer.discard();
        throw err;
      }
      answer.release();
    };
  };
}
