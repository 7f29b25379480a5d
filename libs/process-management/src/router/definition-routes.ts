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
 * | DELETE | /definitions/{name} | 204; 404; 409 naming what still uses it (crontabs, definitions naming it as parent or predecessor, unfinished processes) |
 */
import { processDb } from '@fw/process-service';
import { auditedChange } from '../audit/audit-context';
import { badRequest, conflict, notFound } from '../http/management-errors';
import { pageOfList, parsePageRequest } from '../http/pagination';
import type { ManagementPorts } from '../ports/management-ports';
import { makeDefinitionStore, parseDefinitionBody } from '../repository/definition-store';
import type { OperationBinder } from './operation-binding';

/** The body of POST and PUT, checked against DefinitionInput / DefinitionUpdate before a handler runs. */
type DefinitionBody = Record<string, unknown> & { processType?: string };

export function addDefinitionRoutes(bind: OperationBinder, ports: ManagementPorts): void {
  const { configurator, source } = ports.definitions;
  const store = makeDefinitionStore(processDb(ports.database));

  const assertWritable = (): void => {
    if (source !== 'database') {
      throw conflict(
        'Definitions come from the JSON source (fw.process.configurator=json) and cannot be changed here: edit the definitions file, or switch to the database source',
      );
    }
  };

  bind('listDefinitions', async (req, res) => {
    const request = parsePageRequest(req.query);
    res.json(pageOfList(await configurator.list(), request));
  });

  bind('refreshDefinitions', async (_req, res) => {
    configurator.invalidate?.();
    const definitions = (await configurator.list()).length;
    res.json({ refreshed: true, definitions });
  });

  bind('getDefinition', async (req, res) => {
    const name = String(req.params.name);
    const def = await configurator.findByName(name);
    if (!def) throw notFound(`No definition '${name}'`);
    res.json(def);
  });

  bind('addDefinition', async (req, res) => {
    assertWritable();
    const def = parseDefinitionBody(req.body as DefinitionBody);
    // The audit row commits with the definition (or neither does).
    if (!(await auditedChange(res, (inTransaction) => store.insert(def, inTransaction))))
      throw conflict(`Definition '${def.processType}' already exists: use PUT /definitions/${def.processType}`);
    configurator.invalidate?.();
    res.status(201).json(def);
  });

  bind('deleteDefinition', async (req, res) => {
    assertWritable();
    const name = String(req.params.name);
    if (!(await configurator.findByName(name))) throw notFound(`No definition '${name}'`);
    const uses: string[] = [];
    const crontabs = ports.crontabs ? await ports.crontabs.countUsing(name) : 0;
    if (crontabs > 0) uses.push(`${crontabs} crontab(s)`);
    const dependents = (await configurator.list())
      .filter((d) => d.parentProcessType === name || d.predecessorProcessType === name)
      .map((d) => d.processType);
    if (dependents.length > 0) uses.push(`definition(s) ${dependents.join(', ')} (as parent or predecessor)`);
    const unfinished = await store.countUnfinished(name);
    if (unfinished > 0) uses.push(`${unfinished} unfinished process(es)`);
    if (uses.length > 0)
      throw conflict(`Definition '${name}' is still used by ${uses.join(', ')}: remove or finish those first`);
    if (!(await auditedChange(res, (inTransaction) => store.remove(name, inTransaction))))
      throw notFound(`No definition '${name}'`);
    configurator.invalidate?.();
    res.status(204).end();
  });

  bind('updateDefinition', async (req, res) => {
    assertWritable();
    const name = String(req.params.name);
    const body: DefinitionBody = { ...(req.body as DefinitionBody) };
    // The name comes from the path; a body that names another type is a mistake, not a rename.
    body.processType ??= name;
    if (body.processType !== name)
      throw badRequest(`'processType' (${body.processType}) must equal the name in the path (${name})`);
    const def = parseDefinitionBody(body);
    if (!(await auditedChange(res, (inTransaction) => store.update(def, inTransaction))))
      throw notFound(`No definition '${name}': create it with POST /definitions`);
    configurator.invalidate?.();
    res.json(def);
  });
}
