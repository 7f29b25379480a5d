/**
 * The UI's client against the server's contract: every path it reads is one the host documents in
 * its `/openapi.json` (a real @fw/service registry with a workflow service and the registry
 * service). The answers' shapes are covered by the component tests, built from the same registries.
 */
import { makeServiceRegistry, makeServiceRegistryService, makeServiceRouter } from '@fw/service';
import { defineWorkflowService, makeInMemoryWorkflowStore, SUPPORT_TICKET_FLOW } from '@fw/workflow';
import express from 'express';
import request from 'supertest';
import { API_DOC_PATHS } from '../features/api-docs/api-docs-page';
import { fillPath, INFO_PATHS } from './info-client';

describe("the info client and the host's OpenAPI document", () => {
  it('reads only paths the host documents', async () => {
    const ticket = defineWorkflowService({
      name: 'support-ticket',
      version: '1.0.0',
      flows: [SUPPORT_TICKET_FLOW],
      store: makeInMemoryWorkflowStore(),
    });
    const registry = makeServiceRegistry({
      host: { name: 'h', version: '1' },
      services: [makeServiceRegistryService(), ticket],
    });
    const app = express();
    app.use(makeServiceRouter(registry));
    const document = (await request(app).get('/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const [name, template] of Object.entries(INFO_PATHS)) {
      // A workflow service's introspection is documented under its own prefix.
      const documented = template.startsWith('/{svc}/') ? template.replace('/{svc}/', '/support-ticket/') : template;
      expect({ name, documented, get: document.paths[documented]?.get !== undefined }).toEqual({
        name,
        documented,
        get: true,
      });
    }
    expect(document.paths[API_DOC_PATHS[0]]?.get).toBeDefined();
  });

  it('fills path parameters URL-encoded', () => {
    expect(fillPath(INFO_PATHS.allowedActions, { svc: 'a b', flowId: 'f/1', stateId: 'S' })).toBe(
      '/a%20b/info/flows/f%2F1/states/S/allowed-actions',
    );
  });
});
