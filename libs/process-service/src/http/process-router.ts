/**
 * The process endpoints, answering with the framework envelope:
 *
 * | Method | Path | Payload |
 * |---|---|---|
 * | POST | /process | `{ mutatedEntity, allowedActionsAndMetadata }` |
 * | GET | /process/:id | same |
 * | PATCH | /process/:id/:eventID | same |
 * | GET | /processChildren/:id?recursive=true | `[process, ...children]` |
 * | POST | /process/completed | `[successor, ...]` created now |
 *
 * The router parses JSON itself, reads `x-fw-tenant-id` into the request context, checks bodies
 * against the schemas of its OpenAPI description (openapi/process-api-*.ts: what a host's
 * document shows), answers other methods on these paths with 405 and `Allow`, and converts
 * errors to envelopes, so it can be mounted as is.
 *
 * @example
 * const app = express();
 * app.use(makeProcessRouter({ manager }));
 * app.listen(8080);
 */
import { createLogger, successEnvelope, type Logger } from '@fw/core';
import {
  makeErrorMiddleware,
  makeMethodNotAllowed,
  rejectControlCharacters,
  requireJsonBody,
  tenantContextMiddleware,
} from '@fw/core/http';
import { TRIGGER_HEADER } from '@fw/process-api';
import express, { type Router } from 'express';
import type { ProcessManager } from '../manager/process-manager';
import { PROCESS_API_OPERATIONS } from '../openapi/process-api-operations';
import { EVENT_PAYLOAD_SCHEMAS } from '../openapi/process-api-schemas';
import { checkProcessBody, checkTriggerHeader } from './process-request-check';

export interface ProcessRouterOptions {
  manager: ProcessManager;
  logger?: Logger;
  /** Largest accepted JSON body (express notation). Default `5mb` (split payloads can be large). */
  bodyLimit?: string;
}

function header(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** Makes the express router of the process endpoints. */
export function makeProcessRouter(options: ProcessRouterOptions): Router {
  const { manager } = options;
  const logger = options.logger ?? createLogger({ name: 'process-router' });
  const router = express.Router();
  // Decided by the request line alone: DELETE /process/{id} is a 405 whatever its body.
  router.use(makeMethodNotAllowed(PROCESS_API_OPERATIONS));
  router.use(tenantContextMiddleware());
  router.use(requireJsonBody());
  router.use(express.json({ limit: options.bodyLimit ?? '5mb' }));
  router.use(rejectControlCharacters());

  router.post('/process/completed', async (req, res) => {
    checkProcessBody('ProcessCompletedRequest', req.body);
    const created = await manager.processCompleted(req.body);
    res.status(200).json(successEnvelope(created));
  });

  router.post('/process', async (req, res) => {
    checkProcessBody('ProcessCreateRequest', req.body);
    const triggerId = header(req.headers[TRIGGER_HEADER]);
    checkTriggerHeader(TRIGGER_HEADER, triggerId);
    const result = await manager.createProcess(req.body, { triggerId: triggerId ?? null, refuseChildOnlyTypes: true });
    res.status(200).json(successEnvelope(result));
  });

  router.get('/process/:id', async (req, res) => {
    res.status(200).json(successEnvelope(await manager.getProcess(req.params.id)));
  });

  router.patch('/process/:id/:eventID', async (req, res) => {
    // An unknown event has no schema: the manager answers it (422 P005).
    const eventId = req.params.eventID;
    if (Object.hasOwn(EVENT_PAYLOAD_SCHEMAS, eventId)) checkProcessBody(EVENT_PAYLOAD_SCHEMAS[eventId], req.body);
    const result = await manager.sendEvent(req.params.id, req.params.eventID, req.body);
    res.status(200).json(successEnvelope(result));
  });

  router.get('/processChildren/:id', async (req, res) => {
    const recursive = String(req.query.recursive ?? 'false').toLowerCase() === 'true';
    res.status(200).json(successEnvelope(await manager.getProcessTree(req.params.id, { recursive })));
  });

  router.use(makeErrorMiddleware(logger));
  return router;
}
