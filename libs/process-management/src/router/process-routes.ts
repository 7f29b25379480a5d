/**
 * /processes and /trace, scoped to the tenant of `x-fw-tenant-id` (another tenant's process
 * answers 404).
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | /processes?processType&status&triggerId&parentId&predecessorId&page&size | Page of ProcessSummary, newest first |
 * | GET | /processes/{id} | ProcessDetail (input, output, errors, status, completionEvents) |
 * | GET | /trace?processId= or ?triggerId= | `{ nodes, edges }`; 400 unless exactly one; 413 above 1,000 |
 */
import type { Router } from 'express';
import { processDb } from '@fw/process-service';
import { badRequest, notFound } from '../http/management-errors';
import { parsePageRequest } from '../http/pagination';
import type { ManagementPorts } from '../ports/management-ports';
import { isUuid, makeProcessQueries, type ProcessFilter } from '../repository/process-queries';
import { makeTraceLoader } from '../trace/trace-loader';
import { optionalQuery, tenantOf } from './request-values';

function uuidFilter(query: Record<string, unknown>, name: string): string | undefined {
  const value = optionalQuery(query, name);
  if (value !== undefined && !isUuid(value)) throw badRequest(`Query parameter '${name}' must be a process id (UUID)`);
  return value;
}

export function addProcessRoutes(router: Router, ports: ManagementPorts, traceLimit?: number): void {
  const db = processDb(ports.database);
  const queries = makeProcessQueries(db);
  const traces = makeTraceLoader({ db, triggerService: ports.triggerService, limit: traceLimit });

  router.get('/processes', async (req, res) => {
    const request = parsePageRequest(req.query);
    const filter: ProcessFilter = {
      processType: optionalQuery(req.query, 'processType'),
      status: optionalQuery(req.query, 'status'),
      triggerId: optionalQuery(req.query, 'triggerId'),
      parentId: uuidFilter(req.query, 'parentId'),
      predecessorId: uuidFilter(req.query, 'predecessorId'),
    };
    res.json(await queries.listProcesses(tenantOf(res), filter, request));
  });

  router.get('/processes/:id', async (req, res) => {
    const tenant = tenantOf(res);
    const id = req.params.id;
    const detail = isUuid(id) ? await queries.getProcess(tenant, id) : undefined;
    if (!detail) throw notFound(`No process ${id} in tenant ${tenant}`);
    res.json(detail);
  });

  router.get('/trace', async (req, res) => {
    const tenant = tenantOf(res);
    const processId = optionalQuery(req.query, 'processId');
    const triggerId = optionalQuery(req.query, 'triggerId');
    if ((processId === undefined) === (triggerId === undefined)) throw badRequest('Give exactly one of the query parameters processId and triggerId');
    if (processId !== undefined) {
      if (!isUuid(processId)) throw notFound(`No process ${processId} in tenant ${tenant}`);
      res.json(await traces.byProcess(tenant, processId));
      return;
    }
    res.json(await traces.byTrigger(tenant, triggerId as string));
  });
}
