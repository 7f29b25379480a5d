/**
 * Property tests of the `/process` endpoints as the admin server serves them (the router of
 * `@fw/process-service` behind the management key): for every operation, requests generated from
 * the schemas of its OpenAPI description mixed with hostile values, sent to a listening server.
 * No 5xx; every answer valid against the description; after a 4xx to a write no row changed in
 * the process tables. Same seed rules as api-properties.test.ts.
 */
import { errorEnvelope, FwError } from '@fw/core';
import { PROCESS_API_OPERATIONS } from '@fw/process-service';
import { makeProcessRouter } from '@fw/process-service/http';
import { describeEachDatabase } from '@fw/test-support';
import express from 'express';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeManagementKeyGuard, makeResponseContract } from '../../src';
import { DEFINITIONS, KEY, makeAdminHarness, seedDefinitions } from '../support';
import { processDocument, processRequestArbitrary, type KnownProcesses } from './process-request-arbitraries';

const SEED = Number(process.env.FW_PROPERTY_SEED ?? 20_261_124);
const RUNS = Number(process.env.FW_PROPERTY_RUNS ?? 200);
const CONTRACT = makeResponseContract(processDocument());

/**
 * The process tables, as one text that changes with any row: every save of a process bumps its
 * version (so count and sum of versions see inserts and updates) without hashing every row,
 * which grew too slow as splits added children; the other tables only ever get rows.
 */
const FINGERPRINT = sql<{ fingerprint: string }>`select concat_ws('|',
  (select count(*) || ':' || coalesce(sum(version), 0) || ':' || coalesce(max(last_modified_time)::text, '') from fw_process),
  (select count(*) from fw_process_error),
  (select count(*) from fw_process_completion_event),
  (select count(*) from fw_process_child_report)) as fingerprint`;

describeEachDatabase('/process endpoints: property tests (generated and hostile requests)', (getDb) => {
  let server: Server;
  let base: string;
  let known: KnownProcesses;

  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    const { manager } = makeAdminHarness(getDb());
    const app = express();
    // As the admin server composes them: the key first, with an envelope 401.
    app.use(
      makeManagementKeyGuard(KEY, {
        unauthorizedBody: (message) =>
          errorEnvelope(new FwError({ code: 401, subErrorCode: 'PM401', description: message })),
      }),
    );
    app.use(makeProcessRouter({ manager }));
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ids: string[] = [];
    for (const processDefName of ['wordcount', 'single', 'single'])
      ids.push(
        (await manager.createProcess({ processDefName, args: { text: 'a b' } }, { tenant: 'prop-tenant' }))
          .mutatedEntity.id,
      );
    known = { definitionNames: DEFINITIONS.map((d) => d.processType), processIds: ids };
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });

  PROCESS_API_OPERATIONS.forEach((op, index) => {
    it(`${op.method} ${op.path}: ${RUNS} generated requests, no 5xx, every answer as documented, nothing stored after a 4xx`, async () => {
      const fingerprint = async (): Promise<string> =>
        (await FINGERPRINT.execute(getDb().database.db)).rows[0].fingerprint;
      let stored = await fingerprint();
      const statuses = new Set<number>();
      const property = fc.asyncProperty(processRequestArbitrary(op, known, KEY), async (req) => {
        const res = await fetch(`${base}${req.url}`, {
          method: req.method,
          headers: req.headers,
          ...(req.body === undefined ? {} : { body: req.body }),
        });
        const text = await res.text();
        statuses.add(res.status);
        const where = `${req.method} ${req.url.slice(0, 300)} body ${(req.body ?? '').slice(0, 300)} → ${res.status} ${text.slice(0, 300)}`;
        if (res.status >= 500) throw new Error(`a 5xx answer: ${where}`);
        const problems = CONTRACT.problemsOf({
          method: req.method,
          path: new URL(req.url, base).pathname,
          status: res.status,
          contentType: res.headers.get('content-type') ?? undefined,
          text,
          headers: { allow: res.headers.get('allow') ?? undefined },
        });
        if (problems.length > 0)
          throw new Error(`an answer the document does not allow: ${where}\n  ${problems.join('\n  ')}`);
        if (req.method === 'GET' || req.method === 'HEAD') return;
        const now = await fingerprint();
        if (res.status >= 400 && now !== stored) throw new Error(`rows changed after a ${res.status}: ${where}`);
        stored = now;
      });
      await fc.assert(property, { numRuns: RUNS, seed: SEED + 100 + index });
      expect({
        operation: op.name,
        success: [...statuses].some((s) => s < 300),
        refused: [...statuses].some((s) => s >= 400),
      }).toEqual({ operation: op.name, success: true, refused: true });
    }, 180_000);
  });
});
