/**
 * /health: throughput, backlog and wait per process type of the tenant of `x-fw-tenant-id` over
 * the last hour (viewer role, like every read).
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | /health | `{ tenant, generatedAt, windowSeconds, bucketSeconds, processTypes: HealthRow[] }` |
 */
import { makeHealthReader } from '../health/health-reader';
import type { ManagementPorts } from '../ports/management-ports';
import type { OperationBinder } from './operation-binding';
import { tenantOf } from './request-values';

export function addHealthRoutes(bind: OperationBinder, ports: ManagementPorts): void {
  const health = makeHealthReader(ports.database.db);
  bind('health', async (_req, res) => {
    res.json(await health.read(tenantOf(res)));
  });
}
