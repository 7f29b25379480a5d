/**
 * /definitions: read through the configurator (either source), write to `process_definition`
 * (database source only; the JSON source answers 409). Definitions are global (not per tenant).
 *
 * | method | path | answer |
 * |---|---|---|
 * | GET | /definitions | Page of ProcessDef, ordered by processType |
 * | GET | /definitions/{name} | ProcessDef, 404 |
 * | POST | /definitions | 201 ProcessDef; 409 duplicate; 400 invalid or cycle |
 * | PUT | /definitions/{name} | 200 ProcessDef; 404; 400 invalid, name mismatch or cycle |
 * | POST | /definitions/refresh | `{ refreshed: true, definitions: n }` |
 */
import { type Router } from 'express';
import { processDb } from '@fw/process-service';
import { badRequest, conflict, notFound } from '../http/management-errors';
import { pageOfList, parsePageRequest } from '../http/pagination';
import type { ManagementPorts } from '../ports/management-ports';
import { makeDefinitionStore, parseDefinitionBody } from '../repository/definition-store';
import { bodyObject } from './request-values';

export function addDefinitionRoutes(router: Router, ports: ManagementPorts): void {
  const { configurator, source } = ports.definitions;
  const store = makeDefinitionStore(processDb(ports.database));

  const assertWritable = (): void => {
    if (source !== 'database') {
      throw conflict('Definitions come from the JSON source (fw.process.configurator=json) and cannot be changed here: edit the definitions file, or switch to the database source');
    }
  };

  router.get('/definitions', async (req, res) => {
    const request = parsePageRequest(req.query);
    res.json(pageOfList(await configurator.list(), request));
  });

  router.post('/definitions/refresh', async (_req, res) => {
    configurator.invalidate?.();
    const definitions = (await configurator.list()).length;
    res.json({ refreshed: true, definitions });
  });

  router.get('/definitions/:name', async (req, res) => {
    const def = await configurator.findByName(req.params.name);
    if (!def) throw notFound(`No definition '${req.params.name}'`);
    res.json(def);
  });

  router.post('/definitions', async (req, res) => {
    assertWritable();
    const def = parseDefinitionBody(bodyObject(req.body));
    if (!(await store.insert(def))) throw conflict(`Definition '${def.processType}' already exists: use PUT /definitions/${def.processType}`);
    configurator.invalidate?.();
    res.status(201).json(def);
  });

  router.put('/definitions/:name', async (req, res) => {
    assertWritable();
    const name = req.params.name;
    const body = { ...bodyObject(req.body) };
    if (body.processType === undefined) body.processType = name;
    if (body.processType !== name) throw badRequest(`'processType' (${String(body.processType)}) must equal the name in the path (${name})`);
    const def = parseDefinitionBody(body);
    if (!(await store.update(def))) throw notFound(`No definition '${name}': create it with POST /definitions`);
    configurator.invalidate?.();
    res.json(def);
  });
}
