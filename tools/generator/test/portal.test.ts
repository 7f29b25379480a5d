import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { makeBlueprintCatalog } from '../src/blueprint/catalog';
import { DEFAULT_CONFIG } from '../src/config/generator-config';
import { makePortalApp, SESSION_HEADER, type PortalApp } from '../src/portal/portal-app';
import { BUILTIN_BLUEPRINTS_DIR } from '../src/blueprint/catalog';
import { removeTempDirs, tempDir } from './support';

afterAll(removeTempDirs);

const SPEC = readFileSync(
  path.join(BUILTIN_BLUEPRINTS_DIR, 'fw-process-management/META-INF/samples/process-spec.json'),
);

interface Session {
  token: string;
  workspaceId: string;
}

function portal(extra: Partial<Parameters<typeof makePortalApp>[0]> = {}): { portal: PortalApp; commands: string[] } {
  const commands: string[] = [];
  const p = makePortalApp({
    catalog: makeBlueprintCatalog(),
    config: DEFAULT_CONFIG,
    root: tempDir('fw-gen-portal-'),
    uploadLimitBytes: 64 * 1024,
    runCommand: async (command, args, _cwd, log) => {
      commands.push(`${command} ${args.join(' ')}`);
      log(`ran ${command} ${args.join(' ')}`);
    },
    ...extra,
  });
  return { portal: p, commands };
}

async function session(p: PortalApp): Promise<Session> {
  const res = await request(p.app).post('/api/sessions').expect(201);
  return res.body as Session;
}

/** The SSE stream of an operation, read to its end: the log lines and the end event. */
async function logsOf(
  p: PortalApp,
  s: Session,
  operationId: string,
): Promise<{ lines: string[]; end: { status: string; failure: string | null } }> {
  const res = await request(p.app)
    .get(`/api/operations/${operationId}/logs/stream`)
    .set(SESSION_HEADER, s.token)
    .buffer(true)
    .parse((r, done) => {
      let text = '';
      r.on('data', (d: Buffer) => (text += d.toString()));
      r.on('end', () => done(null, text));
    });
  expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
  const events = String(res.body)
    .split('\n\n')
    .filter(Boolean)
    .map((block) => ({
      event: /^event: (\w+)/.exec(block)![1],
      data: JSON.parse(block.slice(block.indexOf('data: ') + 6)),
    }));
  return {
    lines: events.filter((e) => e.event === 'log').map((e) => e.data as string),
    end: events.find((e) => e.event === 'end')!.data,
  };
}

async function generate(p: PortalApp, s: Session): Promise<string[]> {
  await request(p.app)
    .post('/api/uploads?name=process-spec.json')
    .set(SESSION_HEADER, s.token)
    .set('content-type', 'application/json')
    .send(SPEC.toString())
    .expect(201);
  const started = await request(p.app)
    .post('/api/generations')
    .set(SESSION_HEADER, s.token)
    .send({
      blueprint: 'fw-process-management',
      answers: { application: 'shop', processSpec: 'process-spec.json', destFolder: '../../escape' },
    })
    .expect(202);
  const { lines, end } = await logsOf(p, s, started.body.operationId);
  expect(end).toEqual({ status: 'succeeded', failure: null });
  return lines;
}

describe('portal API', () => {
  it('lists the blueprints with their prompts', async () => {
    const { portal: p } = portal();
    const res = await request(p.app).get('/api/generators').expect(200);
    const fpm = res.body.generators.find((g: { name: string }) => g.name === 'fw-process-management');
    expect(fpm).toMatchObject({ version: '0.1.0', sinceVersion: '2.1.31' });
    expect(fpm.inputFields.map((f: { name: string }) => f.name)).toContain('processSpec');
  });

  it('serves the built page: its index for / with a content security policy, its assets as files', async () => {
    const webDir = tempDir('fw-gen-portal-web-');
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(
      path.join(webDir, 'index.html'),
      '<!doctype html><html><head><title>fw-gen portal</title><script type="module" src="./assets/index-abc.js"></script></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(path.join(webDir, 'assets', 'index-abc.js'), 'console.log(1)');
    const { portal: p } = portal({ webDir });
    const res = await request(p.app).get('/').expect(200);
    expect(res.text).toContain('<title>fw-gen portal</title>');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    const asset = await request(p.app).get('/assets/index-abc.js').expect(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
    await request(p.app).get('/assets/missing.js').expect(404);
  });

  it('without a build, / says how to build the page (the API still works)', async () => {
    const { portal: p } = portal({ webDir: path.join(tempDir('fw-gen-portal-web-'), 'none') });
    const res = await request(p.app).get('/').expect(503);
    expect(res.text).toContain('npm run build -w @fw/generator');
    await request(p.app).get('/api/generators').expect(200);
  });

  it('a generation streams its processor steps over SSE and lands in the workspace project (destFolder ignored)', async () => {
    const { portal: p } = portal();
    const s = await session(p);
    const lines = await generate(p, s);
    expect(lines[0]).toMatch(/^\[1\/6\] load blueprint: fw-process-management/);
    expect(lines.at(-1)).toMatch(/^generated fw-process-management 0\.1\.0 into project\/ \(\d+ files/);
    const tree = await request(p.app)
      .get(`/api/workspaces/${s.workspaceId}/tree`)
      .set(SESSION_HEADER, s.token)
      .expect(200);
    expect(tree.body.files).toEqual(
      expect.arrayContaining([
        'uploads/process-spec.json',
        'project/.fw-gen.json',
        'project/shop-service/src/processes/file-import.ts',
      ]),
    );
    const file = await request(p.app)
      .get(`/api/workspaces/${s.workspaceId}/files`)
      .query({ path: 'project/shop-api/src/index.ts' })
      .set(SESSION_HEADER, s.token)
      .expect(200);
    expect(file.text).toContain('export interface FileImportInput');
    expect(existsSync(path.join(p.sessions.touch(s.token)!.dir, '..', '..', 'escape'))).toBe(false);
  });

  it('a spec with a cycle fails the operation naming the cycle; nothing is generated', async () => {
    const { portal: p } = portal();
    const s = await session(p);
    const spec = JSON.parse(SPEC.toString());
    spec.processes.find((x: { processType: string }) => x.processType === 'page-sync').children = ['order-sync'];
    await request(p.app)
      .post('/api/uploads?name=cyclic.json')
      .set(SESSION_HEADER, s.token)
      .send(JSON.stringify(spec))
      .expect(201);
    const started = await request(p.app)
      .post('/api/generations')
      .set(SESSION_HEADER, s.token)
      .send({ blueprint: 'fw-process-management', answers: { processSpec: 'cyclic.json' } })
      .expect(202);
    const { lines, end } = await logsOf(p, s, started.body.operationId);
    expect(end).toEqual({ status: 'failed', failure: 'GEN_SPEC_INVALID' });
    expect(lines.join('\n')).toContain('cycle in children: order-sync → region-sync → page-sync → order-sync');
    const tree = await request(p.app)
      .get(`/api/workspaces/${s.workspaceId}/tree`)
      .set(SESSION_HEADER, s.token)
      .expect(200);
    expect(tree.body.files).toEqual(['uploads/cyclic.json']);
  });

  it('tests and builds run npm in the project with streamed logs; the download is a zip of the project', async () => {
    const { portal: p, commands } = portal();
    const s = await session(p);
    await generate(p, s);
    const tests = await request(p.app)
      .post(`/api/workspaces/${s.workspaceId}/tests`)
      .set(SESSION_HEADER, s.token)
      .expect(202);
    expect((await logsOf(p, s, tests.body.operationId)).lines).toEqual([
      'ran npm install --no-audit --no-fund --prefer-offline',
      'ran npm test',
    ]);
    const build = await request(p.app)
      .post(`/api/workspaces/${s.workspaceId}/builds`)
      .set(SESSION_HEADER, s.token)
      .expect(202);
    await logsOf(p, s, build.body.operationId);
    expect(commands).toEqual([
      'npm install --no-audit --no-fund --prefer-offline',
      'npm test',
      'npm install --no-audit --no-fund --prefer-offline',
      'npm run build',
    ]);
    const zip = await request(p.app)
      .get(`/api/workspaces/${s.workspaceId}/download`)
      .set(SESSION_HEADER, s.token)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (d: Buffer) => chunks.push(d));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const bytes = zip.body as Buffer;
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(bytes.toString('latin1')).toContain('project/shop-service/src/processes/file-import.ts');
  });

  it('a path that leaves the workspace is 400; another session cannot read this one (404); no token is 401', async () => {
    const { portal: p } = portal();
    const a = await session(p);
    const b = await session(p);
    await generate(p, a);
    for (const bad of ['../../etc/passwd', '/etc/passwd', 'project/../../x']) {
      const res = await request(p.app)
        .get(`/api/workspaces/${a.workspaceId}/files`)
        .query({ path: bad })
        .set(SESSION_HEADER, a.token);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('GEN_PATH_OUTSIDE');
    }
    await request(p.app).get(`/api/workspaces/${a.workspaceId}/tree`).set(SESSION_HEADER, b.token).expect(404);
    await request(p.app)
      .get(`/api/workspaces/${a.workspaceId}/files`)
      .query({ path: 'project/.fw-gen.json' })
      .set(SESSION_HEADER, b.token)
      .expect(404);
    await request(p.app).get(`/api/workspaces/${a.workspaceId}/download`).set(SESSION_HEADER, b.token).expect(404);
    await request(p.app).get(`/api/workspaces/${a.workspaceId}/tree`).expect(401);
    await request(p.app).post('/api/uploads?name=../x.json').set(SESSION_HEADER, a.token).send('{}').expect(400);
  });

  it('uploads are size-limited (413)', async () => {
    const { portal: p } = portal();
    const s = await session(p);
    await request(p.app)
      .post('/api/uploads?name=big.json')
      .set(SESSION_HEADER, s.token)
      .set('content-type', 'application/json')
      .send(' '.repeat(65 * 1024))
      .expect(413);
  });

  it('an operation of another session is 404', async () => {
    const { portal: p } = portal();
    const a = await session(p);
    const b = await session(p);
    const started = await request(p.app)
      .post('/api/generations')
      .set(SESSION_HEADER, a.token)
      .send({ blueprint: 'generator-blueprint', answers: {} })
      .expect(202);
    await request(p.app).get(`/api/operations/${started.body.operationId}`).set(SESSION_HEADER, b.token).expect(404);
    await request(p.app)
      .get(`/api/operations/${started.body.operationId}/logs/stream`)
      .set(SESSION_HEADER, b.token)
      .expect(404);
    expect((await logsOf(p, a, started.body.operationId)).end.status).toBe('succeeded');
  });

  it('sessions expire: their token stops working and their workspace folder is removed', async () => {
    const root = tempDir('fw-gen-portal-');
    const expiring = makePortalApp({ catalog: makeBlueprintCatalog(), config: DEFAULT_CONFIG, root, ttlMillis: 1000 });
    const s = await session(expiring);
    const dir = path.join(root, s.workspaceId);
    expect(existsSync(dir)).toBe(true);
    await new Promise((r) => setTimeout(r, 1100));
    expect(expiring.sessions.sweep()).toBe(1);
    expect(existsSync(dir)).toBe(false);
    await request(expiring.app).get(`/api/workspaces/${s.workspaceId}/tree`).set(SESSION_HEADER, s.token).expect(401);
  });
});
