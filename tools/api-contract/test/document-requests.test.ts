/**
 * The documents are as strict as the servers: requests generated from each served document's
 * schemas (every operation that reads a body or parameters; a fixed seed, FW_PROPERTY_SEED and
 * FW_PROPERTY_RUNS override it and the runs per operation) are sent to the running host, and none
 * is refused 400 or fails 5xx. Names and ids that must refer to stored records come from hints
 * (a document cannot list a tenant's records); see the README for each.
 */
import { describeEachDatabase } from '@fw/test-support';
import fc from 'fast-check';
import { fetchDocument, startAdminHost, startQueryHost, TENANT, type ContractHost } from '../src/contract-hosts';
import {
  documentOperations,
  requestArbitrary,
  sendRequest,
  takesInput,
  type RequestHints,
  type SentRequest,
} from '../src/document-requests';
import type { JsonValue } from '@fw/test-support';

const SEED = Number(process.env.FW_PROPERTY_SEED ?? 20_261_126);
const RUNS = Number(process.env.FW_PROPERTY_RUNS ?? 40);

/** Sends RUNS generated requests per operation of the host's document; resolves with every answer. */
async function sendGenerated(host: ContractHost, hints: RequestHints): Promise<SentRequest[]> {
  const document = await fetchDocument(host);
  const sent: SentRequest[] = [];
  for (const op of documentOperations(document).filter(takesInput)) {
    for (const request of fc.sample(requestArbitrary(document, op, hints, host.headers), { seed: SEED, numRuns: RUNS }))
      sent.push(await sendRequest(host.url, request));
  }
  return sent;
}

function refusals(sent: readonly SentRequest[]): string[] {
  return sent
    .filter((s) => s.status === 400 || s.status >= 500)
    .map(
      (s) =>
        `${s.status} ${s.request.method} ${s.request.path} ${JSON.stringify(s.request.body)?.slice(0, 300)} → ${s.answer}`,
    );
}

function summary(sent: readonly SentRequest[]): Record<string, number> {
  const byStatus: Record<string, number> = {};
  for (const s of sent) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
  return byStatus;
}

describeEachDatabase('requests generated from the documents', (getDb) => {
  let admin: ContractHost;
  let query: ContractHost;

  beforeAll(async () => {
    admin = await startAdminHost(getDb());
    query = await startQueryHost();
  }, 120_000);
  afterAll(async () => {
    await admin?.close();
    await query?.close();
  }, 60_000);

  it('the admin server refuses none (no 400, no 5xx)', async () => {
    const rootTypes = ['word-count', 'word-count-report'];
    const allTypes = [...rootTypes, 'word-count-chunk'];
    // Records for the hints: processes and a crontab of the tenant.
    const created = await fetch(`${admin.url}/process`, {
      method: 'POST',
      headers: { ...admin.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ processDefName: 'word-count', args: { text: 'a b' } }),
    });
    const processId = ((await created.json()) as { payload: { mutatedEntity: { id: string } } }).payload.mutatedEntity
      .id;
    const known = fc.constantFrom<JsonValue>(processId);
    const API = '/process-management/api';
    const hints: RequestHints = {
      // Names that must refer to stored definitions (root types where a root is started).
      processDefName: fc.constantFrom(...rootTypes),
      processType: fc.constantFrom(...allTypes),
      parentProcessType: fc.option(fc.constantFrom(...allTypes), { nil: null }),
      // A predecessor that closes no cycle (the chunk type has no predecessor of its own).
      predecessorProcessType: fc.constantFrom(null, 'word-count-chunk'),
      // Parsed by croner and the runtime's zone database, which no schema can state.
      cronExpression: fc.constantFrom('0 0 3 * * *', '*/30 * * * * *', '0 15 10 * * 1-5', '0 0 0 1 1 *'),
      timezone: fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'),
      // A definition's retention: an ISO-8601 duration of at least a second, which a lookahead-free
      // pattern cannot state (it admits `P1DT` and `PT0S`).
      succeeded: fc.constantFrom<JsonValue>('P30D', 'PT12H', 'P1DT6H', 'P0.5W', null),
      failed: fc.constantFrom<JsonValue>('P90D', 'PT1S', 'P1Y', 'P2M', null),
      // maxMillis at least baseMillis: a relation between two fields.
      backoff: fc.option(
        fc
          .integer({ min: 1, max: 86_400_000 })
          .chain((base) =>
            fc.integer({ min: base, max: 86_400_000 }).map((max) => ({ baseMillis: base, maxMillis: max })),
          ),
        { nil: null },
      ),
      'header:x-fw-tenant-id': fc.constant(TENANT),
      'path:id': fc.oneof(known, fc.uuid()),
      'path:name': fc.constantFrom(...allTypes),
      // A new definition's name (an existing one is a 409, which is fine, but its cycle check comes first).
      [`POST ${API}/definitions processType`]: fc.uuid().map((u) => `generated-${u}`),
      // The body's processType, when given, equals the name in the path.
      [`PUT ${API}/definitions/{name} path:name`]: fc.constant('word-count-report'),
      [`PUT ${API}/definitions/{name} processType`]: fc.constantFrom('word-count-report', undefined),
      // Exactly one of processId and triggerId (the operation says so in words).
      [`GET ${API}/trace query:processId`]: fc.oneof(known, fc.uuid()),
      [`GET ${API}/trace query:triggerId`]: fc.constant(undefined),
    };
    const sent = await sendGenerated(admin, hints);
    console.log(`admin server: ${sent.length} generated requests, answers by status ${JSON.stringify(summary(sent))}`);
    expect(refusals(sent)).toEqual([]);
  });

  it('the query host refuses none (no 400, no 5xx)', async () => {
    // A cursor is opaque: only one the server wrote is valid, so generated requests page by number.
    const sent = await sendGenerated(query, {
      'header:x-fw-tenant-id': fc.constantFrom('demo', 'acme'),
      cursor: fc.constant(undefined),
      // countMode 'none' with countOnly is a relation between two fields (the demo's queries allow every mode).
      countMode: fc.constantFrom<JsonValue | undefined>(undefined, 'exact', 'planned'),
    });
    console.log(`query host: ${sent.length} generated requests, answers by status ${JSON.stringify(summary(sent))}`);
    expect(refusals(sent)).toEqual([]);
  });
});
