import { Router } from 'express';
import { CoreErrorCodes, FwError } from '../errors/fw-error';
import { successEnvelope } from './response-envelope';
import type { HealthCheck, InfoRouterOptions } from './service-info';

async function runCheck(check: HealthCheck): Promise<{ name: string; healthy: boolean; message?: string }> {
  try {
    const result = await check.check();
    return { name: check.name, ...result };
  } catch (err) {
    return { name: check.name, healthy: false, message: (err as Error).message };
  }
}

/**
 * Mounts `/info`, `/service-info`, `/service-info/{name}`, `/health-check` and
 * `/health-check/{name}`, all answering with the framework envelope. An unhealthy check answers 503.
 */
export function makeInfoRouter(options: InfoRouterOptions): Router {
  const router = Router();
  const services = () => options.services?.() ?? [];
  const checks = options.healthChecks ?? [];

  router.get('/info', (_req, res) => {
    res.json(successEnvelope({ ...options.info, services: services().map((s) => s.name) }));
  });
  router.get('/service-info', (_req, res) => {
    res.json(successEnvelope(services()));
  });
  router.get('/service-info/:name', (req, res) => {
    const found = services().find((s) => s.name === req.params.name);
    if (!found)
      throw new FwError({
        code: 404,
        subErrorCode: CoreErrorCodes.notFound,
        description: `No service named '${req.params.name}'`,
        params: [req.params.name],
      });
    res.json(successEnvelope(found));
  });
  const answerChecks = async (selected: HealthCheck[], res: import('express').Response) => {
    const results = await Promise.all(selected.map(runCheck));
    const healthy = results.every((r) => r.healthy);
    if (healthy) {
      res.json(successEnvelope({ healthy, checks: results }));
      return;
    }
    const failing = results.filter((r) => !r.healthy);
    throw new FwError({
      code: 503,
      subErrorCode: CoreErrorCodes.unavailable,
      description: `Unhealthy: ${failing.map((r) => r.name).join(', ')}`,
      params: failing.map((r) => r.name),
      details: failing.slice(1).map((r) => ({
        subErrorCode: CoreErrorCodes.unavailable,
        description: `${r.name}: ${r.message ?? 'unhealthy'}`,
        params: [r.name],
      })),
    });
  };
  router.get('/health-check', async (_req, res) => answerChecks(checks, res));
  router.get('/health-check/:name', async (req, res) => {
    const check = checks.find((c) => c.name === req.params.name);
    if (!check)
      throw new FwError({
        code: 404,
        subErrorCode: CoreErrorCodes.notFound,
        description: `No health check named '${req.params.name}'`,
        params: [req.params.name],
      });
    await answerChecks([check], res);
  });
  return router;
}
