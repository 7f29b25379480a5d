/**
 * /processes and /trace, scoped to the tenant of `x-fw-tenant-id` (another tenant's process
 * answers 404).
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | /processes?processType&status&triggerId&parentId&predecessorId&roots&q&page&size | Page of ProcessSummary, newest first |
 * | GET | /processes/{id} | ProcessDetail (input, output, errors, status, completionEvents) |
 * | DELETE | /processes/{id} | 204: the finished root and its whole tree removed; 400 a child id; 404; 409 still running |
 * | GET | /trace?processId= or ?triggerId= | `{ nodes, edges }`; 400 unless exactly one; 413 above 1,000 |
 */
import { processDb } from '@fw/process-service';
import { auditedChange } from '../audit/audit-context';
import { badRequest, conflict, notFound } from '../http/management-errors';
import { parsePageRequest } from '../http/pagination';
import type { ManagementPorts } from '../ports/management-ports';
import { isUuid, makeProcessQueries, type ProcessFilter } from '../repository/process-queries';
import { makeHistoryRetentionStore } from '../retention/history-retention-store';
import { makeTraceLoader } from '../trace/trace-loader';
import type { OperationBinder } from './operation-binding';
import { optionalQuery, tenantOf } from './request-values';

export function addProcessRoutes(bind: OperationBinder, ports: ManagementPorts, traceLimit?: number): void {
  const db = processDb(ports.database);
  const queries = makeProcessQueries(db, { countExactLimit: ports.countExactLimit });
  const retention = makeHistoryRetentionStore(ports.database);
  const traces = makeTraceLoader({ db, triggerService: ports.triggerService, limit: traceLimit });

  bind('listProcesses', async (req, res) => {
    const request = parsePageRequest(req.query);
    const filter: ProcessFilter = {
      processType: optionalQuery(req.query, 'processType'),
      status: optionalQuery(req.query, 'status'),
      triggerId: optionalQuery(req.query, 'triggerId'),
      parentId: optionalQuery(req.query, 'parentId'),
      predecessorId: optionalQuery(req.query, 'predecessorId'),
      rootsOnly: optionalQuery(req.query, 'roots') === 'true',
      text: optionalQuery(req.query, 'q'),
    };
    res.json(await queries.listProcesses(tenantOf(res), filter, request));
  });

  bind('getProcess', async (req, res) => {
    const tenant = tenantOf(res);
    const id = String(req.params.id);
    const detail = isUuid(id) ? await queries.getProcess(tenant, id) : undefined;
    if (!detail) throw notFound(`No process ${id} in tenant ${tenant}`);
    res.json(detail);
  });

  bind('deleteProcess', async (req, res) => {
    const tenant = tenantOf(res);
    const id = String(req.params.id);
    // The audit row commits with the removal (or neither does).
    const { outcome } = isUuid(id)
      ? await auditedChange(res, (inTransaction) => retention.removeOne(tenant, id.toLowerCase(), { inTransaction }))
      : { outcome: 'not-found' as const };
    if (outcome === 'not-found') throw notFound(`No process ${id} in tenant ${tenant}`);
    if (outcome === 'not-root')
      throw badRequest(`Process ${id} is a child: remove its root process, which removes the whole tree`);
    if (outcome === 'running')
      throw conflict(
        `Process ${id} is still running (or being removed): a tree is removed only once every process of it has finished`,
      );
    res.status(204).end();
  });

  bind('trace', async (req, res) => {
    const tenant = tenantOf(res);
    const processId = optionalQuery(req.query, 'processId');
    const triggerId = optionalQuery(req.query, 'triggerId');
    if ((processId === undefined) === (triggerId === undefined))
      throw badRequest('Give exactly one of the query parameters processId and triggerId');
    res.json(
      processId !== undefined
        ? await traces.byProcess(tenant, processId)
        : await traces.byTrigger(tenant, triggerId as string),
    );
  });
}
