import { buildOpenApiDocument, type OpenApiLike } from '@fw/process-management';
import { describeEachDatabase } from '@fw/test-support';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createAdminServer, seedDefinitions, WORD_COUNT_DEFINITIONS, type AdminServer } from '../src';
import { checkedAgainst, servedDocument, type CheckedAgent } from './contract';
import { API, headers, KEY, testConfig } from './support';

/** @seriousme/openapi-schema-validator is an ES module: it runs in a node process of its own. */
function validateOpenApi(document: unknown): unknown {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-admin-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const script = `import { Validator } from '@seriousme/openapi-schema-validator';
console.log(JSON.stringify(await new Validator().validate(${JSON.stringify(file)})));`;
    return JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: path.resolve(__dirname, '..'),
        encoding: 'utf8',
      }),
    ) as unknown;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describeEachDatabase('admin server /openapi.json: built from what the routes validate with', (getDb) => {
  let server: AdminServer;
  let request: (target: AdminServer['app']) => CheckedAgent;
  let doc: OpenApiLike;

  beforeAll(async () => {
    await seedDefinitions(getDb().database, WORD_COUNT_DEFINITIONS);
    server = await createAdminServer({
      config: testConfig(getDb()),
      database: getDb().database,
      ownerId: 'openapi-owner',
    });
    request = await checkedAgainst(server.app);
    doc = await servedDocument(server.app);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  }, 60_000);

  it('is a valid OpenAPI 3.1 document covering the info endpoints, /process and the administration API with its own schemas', () => {
    expect(validateOpenApi(doc)).toEqual({ valid: true });
    const management = buildOpenApiDocument();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/info',
        '/service-info/{svc}',
        '/health-check',
        '/health-check/{svc}',
        '/openapi.json',
        '/process',
        '/process/{id}',
        '/process/{id}/{eventID}',
        '/processChildren/{id}',
        '/process/completed',
        ...Object.keys(management.paths),
      ]),
    );
    // The administration API's operations appear exactly as its own document shows them.
    const crontabs = doc.paths[`${API}/crontabs`] as { post: { requestBody: unknown; responses: unknown } };
    expect(crontabs.post.requestBody).toEqual(management.paths[`${API}/crontabs`].post?.requestBody);
    expect(crontabs.post.responses).toEqual(management.paths[`${API}/crontabs`].post?.responses);
    expect(doc.components?.schemas?.CrontabInput).toEqual(management.components.schemas.CrontabInput);
  });

  it('answers /process, the info endpoints and the administration API as documented, 401 and 405 included', async () => {
    const app = server.app;
    expect((await request(app).get('/info')).status).toBe(200);
    expect((await request(app).get('/service-info/process')).status).toBe(200);
    expect((await request(app).get('/service-info/nope')).status).toBe(404);
    expect((await request(app).get('/health-check/process')).status).toBe(200);
    expect((await request(app).post('/info')).status).toBe(405);
    expect(
      (
        await request(app)
          .post('/process')
          .send({ processDefName: 'word-count', args: { text: 'a' } })
      ).status,
    ).toBe(401);
    const created = await request(app)
      .post('/process')
      .set(headers())
      .send({ processDefName: 'word-count', args: { text: 'a b' } });
    expect(created.status).toBe(200);
    const id = created.body.payload.mutatedEntity.id as string;
    expect((await request(app).get(`/process/${id}`).set(headers())).status).toBe(200);
    expect((await request(app).get(`/processChildren/${id}`).set(headers())).status).toBe(200);
    expect(
      (await request(app).patch(`/process/${id}/statusUpdate`).set(headers()).send({ percentComplete: 500 })).status,
    ).toBe(400);
    expect((await request(app).delete(`/process/${id}`).set(headers())).status).toBe(405);
    expect((await request(app).post('/process').set(headers()).send({ args: {} })).status).toBe(400);
    expect((await request(app).get(`${API}/openapi.json`).set('X-Process-Management-Key', KEY)).status).toBe(200);
    expect((await request(app).get(`${API}/processes/${id}`).set(headers())).status).toBe(200);
    expect((await request(app).patch(`${API}/info`).set(headers())).status).toBe(405);
  });
});
