/**
 * The portal's HTTP API (see ../../README.md#portal): blueprints, sessions with their own workspace,
 * uploads, generations and test/build runs as operations whose logs stream over SSE, the workspace
 * tree and files, and the generated project as a zip. Every workspace and operation is reachable
 * only with the token of the session that owns it (another session gets 404, as if it did not
 * exist); a path that leaves the workspace is 400; uploads are size-limited (413). It also serves the
 * page, the built React app of portal-web/, with `@fw/core`'s `serveSpa`.
 */
import { serveSpa } from '@fw/core/http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { BlueprintCatalog } from '../blueprint/catalog';
import type { GeneratorConfig } from '../config/generator-config';
import { isGeneratorError, GeneratorErrorCodes } from '../errors';
import { makeGenerator } from '../processors/generator';
import { listFiles } from '../render/render-tree';
import { makeOperationStore, type Operation, type OperationStore } from './operations';
import { defaultPortalWebDir } from './portal-web';
import { runCommand, type CommandRunner } from './run-command';
import { makeSessionStore, type PortalSession, type SessionStore } from './sessions';
import { resolveInside, safeUploadName } from './workspace-paths';
import { streamZip } from './zip';

export const SESSION_HEADER = 'x-fw-gen-session';

export interface PortalAppOptions {
  catalog: BlueprintCatalog;
  config: GeneratorConfig;
  /** Folder holding one workspace folder per session. */
  root: string;
  ttlMillis?: number;
  uploadLimitBytes?: number;
  /** Runs npm in a generated project (tests replace it). */
  runCommand?: CommandRunner;
  /** The built page (`npm run build-web`); default `<package>/dist/portal-web`. */
  webDir?: string;
}

export interface PortalApp {
  app: express.Express;
  sessions: SessionStore;
  operations: OperationStore;
}

type SessionRequest = Request & { session?: PortalSession };

const PROJECT = 'project';

function fail(res: Response, status: number, message: string, code?: string): void {
  res.status(status).json({ message, ...(code ? { code } : {}) });
}

function errorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (isGeneratorError(err))
    fail(
      res,
      err.code === GeneratorErrorCodes.PATH_OUTSIDE || err.code === GeneratorErrorCodes.USAGE ? 400 : 422,
      err.message,
      err.code,
    );
  else if ((err as { type?: string }).type === 'entity.too.large')
    fail(res, 413, 'the upload is larger than the portal accepts');
  else if ((err as { type?: string }).type === 'entity.parse.failed') fail(res, 400, 'the body is not valid JSON');
  else fail(res, 500, 'internal error');
}

function withSession(sessions: SessionStore) {
  return (req: SessionRequest, res: Response, next: NextFunction): void => {
    const session = sessions.touch(req.get(SESSION_HEADER));
    if (!session)
      return fail(res, 401, `missing, unknown or expired ${SESSION_HEADER}: create a session with POST /api/sessions`);
    req.session = session;
    next();
  };
}

/** The session's own workspace, or 404 for any other id (no cross-session reads). */
function workspaceOf(req: SessionRequest, res: Response): PortalSession | undefined {
  const session = req.session!;
  if (req.params.id !== session.workspaceId) {
    fail(res, 404, `no workspace ${String(req.params.id)}`);
    return undefined;
  }
  return session;
}

function streamLogs(operations: OperationStore, op: Operation, req: Request, res: Response): void {
  res.status(200).set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  const stop = operations.follow(op, (event) => {
    if (event.type === 'line') res.write(`event: log\ndata: ${JSON.stringify(event.line)}\n\n`);
    else {
      res.write(`event: end\ndata: ${JSON.stringify({ status: event.status, failure: event.failure ?? null })}\n\n`);
      res.end();
    }
  });
  req.on('close', stop);
}

export function makePortalApp(options: PortalAppOptions): PortalApp {
  const sessions = makeSessionStore({ root: options.root, ttlMillis: options.ttlMillis ?? 30 * 60_000 });
  const operations = makeOperationStore();
  const run = options.runCommand ?? runCommand;
  const app = express();
  app.disable('x-powered-by');
  app.use(
    serveSpa({
      dir: options.webDir ?? defaultPortalWebDir(),
      appName: "The portal's page",
      buildCommand: 'npm run build -w @fw/generator',
      notBuiltNote: 'The API under /api works without it.',
      isAppPath: (p) => p !== '/api' && !p.startsWith('/api/'),
    }),
  );
  app.get('/api/generators', (_req, res) => {
    res.json({
      generators: options.catalog.list().map((b) => ({
        name: b.descriptor.name,
        version: b.version,
        description: b.descriptor.description,
        sinceVersion: b.descriptor.sinceVersion ?? null,
        inputFields: b.descriptor.inputFields,
      })),
    });
  });
  app.post('/api/sessions', (_req, res) => {
    const s = sessions.create();
    res.status(201).json({
      sessionId: s.id,
      workspaceId: s.workspaceId,
      token: s.token,
      expiresAt: new Date(s.expiresAt).toISOString(),
    });
  });
  app.use('/api', withSession(sessions));
  mountWork(app, options, operations);
  mountWorkspace(app, operations, run);
  app.use(errorHandler);
  return { app, sessions, operations };
}

function mountWork(app: express.Express, options: PortalAppOptions, operations: OperationStore): void {
  app.post(
    '/api/uploads',
    express.raw({ type: () => true, limit: options.uploadLimitBytes ?? 1024 * 1024 }),
    (req: SessionRequest, res) => {
      const name = safeUploadName(String(req.query.name ?? ''));
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      writeFileSync(resolveInside(req.session!.dir, path.join('uploads', name)), body);
      res.status(201).json({ path: `uploads/${name}`, name, bytes: body.length });
    },
  );
  app.post(
    '/api/generations',
    express.json({ limit: options.uploadLimitBytes ?? 1024 * 1024 }),
    (req: SessionRequest, res) => {
      const session = req.session!;
      const { blueprint, answers, force } = (req.body ?? {}) as {
        blueprint?: unknown;
        answers?: unknown;
        force?: unknown;
      };
      if (typeof blueprint !== 'string' || typeof answers !== 'object' || answers === null || Array.isArray(answers))
        return fail(res, 400, 'body: { "blueprint": "<name>", "answers": { … }, "force"?: boolean }');
      const op = operations.start(session.id, 'generation', async (log) => {
        // The destination is always the workspace's project folder, whatever destFolder says.
        const result = await makeGenerator({
          catalog: options.catalog,
          config: options.config,
          progress: log,
        }).generate({
          blueprint,
          answers: answers as never,
          cwd: session.dir,
          baseDir: path.join(session.dir, 'uploads'),
          destination: PROJECT,
          force: force === true,
        });
        log(
          `generated ${result.blueprint} ${result.blueprintVersion} into ${PROJECT}/ (${result.files.length} files, ${result.millis} ms)`,
        );
      });
      res.status(202).json({ operationId: op.id });
    },
  );
  app.get('/api/operations/:id', (req: SessionRequest, res) => {
    const op = operations.get(String(req.params.id), req.session!.id);
    if (!op) return fail(res, 404, `no operation ${String(req.params.id)}`);
    res.json({ id: op.id, kind: op.kind, status: op.status, failure: op.failure ?? null, lines: op.lines.length });
  });
  app.get('/api/operations/:id/logs/stream', (req: SessionRequest, res) => {
    const op = operations.get(String(req.params.id), req.session!.id);
    if (!op) return fail(res, 404, `no operation ${String(req.params.id)}`);
    streamLogs(operations, op, req, res);
  });
}

function projectDir(session: PortalSession, res: Response): string | undefined {
  const dir = path.join(session.dir, PROJECT);
  if (!existsSync(dir)) {
    fail(res, 409, 'nothing generated in this workspace yet: POST /api/generations first');
    return undefined;
  }
  return dir;
}

function mountWorkspace(app: express.Express, operations: OperationStore, run: CommandRunner): void {
  app.get('/api/workspaces/:id/tree', (req: SessionRequest, res) => {
    const s = workspaceOf(req, res);
    if (s) res.json({ files: listFiles(s.dir).filter((f) => !f.split('/').includes('node_modules')) });
  });
  app.get('/api/workspaces/:id/files', (req: SessionRequest, res) => {
    const s = workspaceOf(req, res);
    if (!s) return;
    const file = resolveInside(s.dir, String(req.query.path ?? ''));
    if (!existsSync(file) || !statSync(file).isFile()) return fail(res, 404, `no file ${String(req.query.path)}`);
    res.type('text/plain; charset=utf-8').send(readFileSync(file));
  });
  const npmOperation = (kind: string, scripts: string[][]) => (req: SessionRequest, res: Response) => {
    const s = workspaceOf(req, res);
    const dir = s && projectDir(s, res);
    if (!s || !dir) return;
    const op = operations.start(s.id, kind, async (log) => {
      if (!existsSync(path.join(dir, 'node_modules')))
        await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], dir, log);
      for (const args of scripts) await run('npm', args, dir, log);
    });
    res.status(202).json({ operationId: op.id });
  };
  app.post('/api/workspaces/:id/tests', npmOperation('tests', [['test']]));
  app.post('/api/workspaces/:id/builds', npmOperation('build', [['run', 'build']]));
  app.get('/api/workspaces/:id/download', (req: SessionRequest, res) => {
    const s = workspaceOf(req, res);
    const dir = s && projectDir(s, res);
    if (!dir) return;
    res
      .status(200)
      .set({ 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="project.zip"' });
    streamZip(dir, PROJECT, res);
  });
}
