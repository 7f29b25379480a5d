// Every process of {{application}} as an HTTP operation behind the administration key:
//   POST /processes/{processType}   body = the typed input → 201 { id, state }
//   GET  /processes/{id}            → 200 the process (state, output, errors)
// The key is read from PROCESS_MANAGEMENT_API_KEY on every request (never at build or start time),
// so it can be rotated by restarting with a new environment and is never in the code or the image.
import { createHash, timingSafeEqual } from 'node:crypto';
import { isFwError } from '@fw/core';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { ProcessManager } from '@fw/process-service';
import { PROCESS_TYPES } from '{{scope}}/{{applicationKebab}}-api';

export const KEY_HEADER = 'x-process-management-key';
export const TENANT_HEADER = 'x-fw-tenant-id';
const MIN_KEY_LENGTH = 32;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** 503 while no usable key is configured, 401 without the right key; constant-time compare. */
export function keyGuard(env: NodeJS.ProcessEnv = process.env) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = env.PROCESS_MANAGEMENT_API_KEY;
    if (key === undefined || key.length < MIN_KEY_LENGTH) {
      res.status(503).json({ message: `PROCESS_MANAGEMENT_API_KEY is not set to a key of at least ${MIN_KEY_LENGTH} characters` });
      return;
    }
    const presented = req.get(KEY_HEADER);
    if (presented === undefined || !timingSafeEqual(digest(key), digest(presented))) {
      res.status(401).json({ message: `missing or wrong ${KEY_HEADER}` });
      return;
    }
    next();
  };
}

/** The framework's errors carry their HTTP status (400 P003 bad input naming the field, 404, …). */
function fail(res: Response, err: unknown): void {
  if (isFwError(err)) res.status(err.code).json({ message: err.description, code: err.subErrorCode, field: err.field });
  else res.status(500).json({ message: 'internal error' });
}

export function makeProcessRoutes(manager: ProcessManager, env: NodeJS.ProcessEnv = process.env): Router {
  const router = express.Router();
  router.use(keyGuard(env));
  router.use(express.json({ limit: '1mb' }));
  router.post('/processes/:processType', async (req, res) => {
    const processType = req.params.processType;
    if (!(PROCESS_TYPES as readonly string[]).includes(processType)) {
      res.status(404).json({ message: `no process type ${processType}` });
      return;
    }
    try {
      const tenant = req.get(TENANT_HEADER) ?? 'default';
      const { mutatedEntity } = await manager.createProcess({ processDefName: processType, args: req.body }, { tenant });
      res.status(201).json({ id: mutatedEntity.id, state: mutatedEntity.state.stateId });
    } catch (err) {
      fail(res, err);
    }
  });
  router.get('/processes/:id', async (req, res) => {
    try {
      const { mutatedEntity } = await manager.getProcess(req.params.id, { tenant: req.get(TENANT_HEADER) ?? 'default' });
      res.json(mutatedEntity);
    } catch (err) {
      fail(res, err);
    }
  });
  return router;
}
