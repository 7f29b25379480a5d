/**
 * Property tests of the administration API: for every operation of its OpenAPI document, requests
 * generated from the document's own schemas, mixed with hostile values (control characters, lone
 * surrogates, emoji, strings and numbers at and past the limits, deep nesting, wrong types,
 * unknown and missing fields, malformed JSON, wrong content types and methods, bad headers), are
 * sent to a running server over HTTP. Whatever is sent:
 *
 * - no answer is a 5xx;
 * - every answer is valid against the document (status listed for the operation, body schema);
 * - after a 4xx to a write, the stored rows of every table the API writes are unchanged.
 *
 * The seed is fixed (FW_PROPERTY_SEED overrides it, FW_PROPERTY_RUNS the number of cases); a
 * failure prints the seed, the counterexample and the answer.
 */
import { describeEachDatabase } from '@fw/test-support';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTRACT } from '../contract';
import { API, DEFINITIONS, KEY, makeAdminHarness, seedDefinitions } from '../support';
import { OPERATIONS, requestArbitrary, type GeneratedRequest, type KnownRecords } from './request-arbitraries';

const SEED = Number(process.env.FW_PROPERTY_SEED ?? 20_261_124);
const RUNS = Number(process.env.FW_PROPERTY_RUNS ?? 200);
const TENANT = 'prop-tenant';
const HEADERS = { 'X-Process-Management-Key': KEY, 'x-fw-tenant-id': TENANT, 'Content-Type': 'application/json' };

/** Every table a write of the API touches, as one text that changes when any row does. */
const FINGERPRINT = sql<{ fingerprint: string }>`select concat_ws('|',
  (select count(*) || ':' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '') from process_definition t),
  (select count(*) || ':' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '') from fw_crontab t),
  (select count(*) || ':' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '') from fw_trigger_log t),
  (select count(*) || ':' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '') from fw_trigger_execution t),
  (select count(*) || ':' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '') from fw_process t)) as fingerprint`;

interface Answer {
  status: number;
  contentType: string | undefined;
  allow: string | undefined;
  text: string;
}

function excerpt(text: string | undefined): string {
  if (text === undefined) return '(none)';
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text;
}

describeEachDatabase('administration API: property tests (generated and hostile requests)', (getDb) => {
  let server: Server;
  let base: string;
  let known: KnownRecords = {
    definitionNames: DEFINITIONS.map((d) => d.processType),
    crontabIds: [],
    processIds: [],
    triggerIds: [],
  };

  const send = async (req: Pick<GeneratedRequest, 'method' | 'url' | 'headers' | 'body'>): Promise<Answer> => {
    const res = await fetch(`${base}${req.url}`, {
      method: req.method,
      headers: req.headers,
      ...(req.body === undefined ? {} : { body: req.body }),
    });
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? undefined,
      allow: res.headers.get('allow') ?? undefined,
      text: await res.text(),
    };
  };
  const fingerprint = async (): Promise<string> => (await FINGERPRINT.execute(getDb().database.db)).rows[0].fingerprint;

  /** Crontabs for valid requests to find, made through the API itself (again when an earlier run deleted them). */
  async function seedCrontabs(): Promise<void> {
    const ids: string[] = [];
    for (const name of ['seeded-nightly', 'seeded-hourly']) {
      const body = {
        name,
        cronExpression: '0 0 1 * * *',
        timezone: 'UTC',
        enabled: false,
        payload: { processDefName: 'single', args: {} },
      };
      const created = await send({
        method: 'POST',
        url: `${API}/crontabs`,
        headers: HEADERS,
        body: JSON.stringify(body),
      });
      if (created.status === 201) ids.push((JSON.parse(created.text) as { id: string }).id);
    }
    if (ids.length > 0) known = { ...known, crontabIds: ids };
  }

  /** Definitions nothing uses, so a DELETE can succeed. */
  async function seedDisposableDefinitions(): Promise<void> {
    const names = ['disposable-a', 'disposable-b', 'disposable-c'];
    for (const processType of names)
      await send({
        method: 'POST',
        url: `${API}/definitions`,
        headers: HEADERS,
        body: JSON.stringify({ processType, leaf: true }),
      });
    known = { ...known, definitionNames: [...new Set([...known.definitionNames, ...names])] };
  }

  /** Processes and trigger ids for valid requests to find. */
  async function seedRecords(): Promise<void> {
    await seedCrontabs();
    for (const key of ['first', 'second']) {
      const triggered = await send({
        method: 'POST',
        url: `${API}/triggers`,
        headers: HEADERS,
        body: JSON.stringify({ triggerId: key, payload: { processDefName: 'wordcount', args: { text: 'a b' } } }),
      });
      known = {
        ...known,
        triggerIds: [...known.triggerIds, (JSON.parse(triggered.text) as { triggerId: string }).triggerId],
      };
    }
    const listed = JSON.parse((await send({ method: 'GET', url: `${API}/processes`, headers: HEADERS })).text) as {
      content: Array<{ id: string }>;
    };
    known = { ...known, processIds: listed.content.map((p) => p.id) };
  }

  /**
   * Finished root processes, so a DELETE /processes/{id} can succeed (the seeded ones still run:
   * 409). Written directly: earlier properties may have rewritten any definition by then.
   */
  async function seedFinishedRoots(): Promise<void> {
    const rows = await sql<{ id: string }>`
      insert into fw_process (id, process_type, leaf, tenant, flow_id, state_id, created_time, last_modified_time, state_entry_time)
      select gen_random_uuid(), 'single', true, ${TENANT}, 'process-flow', 'PROCESSED', now(), now(), now() from generate_series(1, 3) returning id`.execute(
      getDb().database.db,
    );
    known = { ...known, processIds: [...known.processIds, ...rows.rows.map((r) => r.id)] };
  }

  beforeAll(async () => {
    await seedDefinitions(getDb().database);
    const { app } = makeAdminHarness(getDb());
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await seedRecords();
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });

  /** Answers by operation and status, printed with FW_PROPERTY_REPORT=1. */
  const statuses = new Map<string, Map<number, number>>();
  afterAll(() => {
    if (process.env.FW_PROPERTY_REPORT !== '1') return;
    const lines = [...statuses].map(
      ([op, counts]) =>
        `${op.padEnd(20)} ${[...counts]
          .sort(([a], [b]) => a - b)
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
    );
    process.stdout.write(`\nanswers per operation (${getDb().target}, seed ${SEED}):\n${lines.join('\n')}\n`);
  });

  OPERATIONS.forEach((op, index) => {
    it(`${op.method.toUpperCase()} ${op.path}: ${RUNS} generated requests, no 5xx, every answer as documented, nothing stored after a 4xx`, async () => {
      if (op.path.startsWith('/crontabs/')) await seedCrontabs();
      if (op.operationId === 'deleteDefinition') await seedDisposableDefinitions();
      if (op.operationId === 'deleteProcess') await seedFinishedRoots();
      let stored = await fingerprint();
      const counts = new Map<number, number>();
      statuses.set(op.operationId, counts);
      const property = fc.asyncProperty(requestArbitrary(op, API, known, { key: KEY, tenant: TENANT }), async (req) => {
        const answer = await send(req);
        counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
        const where = `${req.method} ${excerpt(req.url)} body ${excerpt(req.body)} → ${answer.status} ${excerpt(answer.text)}`;
        if (answer.status >= 500) throw new Error(`a 5xx answer: ${where}`);
        const problems = CONTRACT.problemsOf({
          method: req.method,
          path: new URL(req.url, base).pathname,
          status: answer.status,
          contentType: answer.contentType,
          text: answer.text,
          headers: { allow: answer.allow },
        });
        if (problems.length > 0)
          throw new Error(`an answer the document does not allow: ${where}\n  ${problems.join('\n  ')}`);
        if (req.method === 'GET' || req.method === 'HEAD') return;
        const now = await fingerprint();
        if (answer.status >= 400 && now !== stored) throw new Error(`rows changed after a ${answer.status}: ${where}`);
        stored = now;
      });
      await fc.assert(property, { numRuns: RUNS, seed: SEED + index });
      // The generator must reach both the success path and the refusals, or the run proves little.
      const seen = [...counts.keys()];
      expect({
        operation: op.operationId,
        success: seen.some((s) => s < 300),
        refused: seen.some((s) => s >= 400),
      }).toEqual({ operation: op.operationId, success: true, refused: true });
    }, 180_000);
  });
});
