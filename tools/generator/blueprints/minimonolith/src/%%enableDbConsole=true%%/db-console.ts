// enableDbConsole=y: a SQL console on the dev database at /fw/db-console (what H2's console is to
// a Java monolith). It is mounted only in the dev profile and answers only loopback clients: it
// runs any SQL it is given, so it must never be reachable on a shared or production host.
//   GET  /fw/db-console          a page with a form (no script: the form posts, the server renders)
//   POST /fw/db-console          form field `sql` → the same page with the result table
//   POST /fw/db-console/query    JSON { sql } → { rows } (for scripts and tests)
import type { Database } from '@fw/core';
import express, { type Request, type Response, type Router } from 'express';

export const DB_CONSOLE_PATH = '/fw/db-console';

function escapeHtml(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function isLoopback(req: Request): boolean {
  const address = req.socket.remoteAddress ?? '';
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '<p>No rows.</p>';
  const columns = Object.keys(rows[0]);
  const head = columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
  const body = rows.map((r) => `<tr>${columns.map((c) => `<td>${escapeHtml(r[c])}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function page(sql: string, result: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{monolith}} database console</title></head><body><main>
<h1>{{monolith}} database console (dev)</h1>
<form method="post" action="${DB_CONSOLE_PATH}"><label for="sql">SQL</label><br>
<textarea id="sql" name="sql" rows="6" cols="80">${escapeHtml(sql)}</textarea><br><button type="submit">Run</button></form>
${result}</main></body></html>`;
}

async function run(database: Database, sql: string): Promise<Record<string, unknown>[]> {
  return database.withSession((session) => session.query(sql));
}

export function makeDbConsoleRouter(database: () => Database): Router {
  const router = express.Router();
  router.use(DB_CONSOLE_PATH, (req, res, next) => {
    if (isLoopback(req)) return next();
    res.status(403).json({ message: 'the database console answers loopback clients only' });
  });
  router.get(DB_CONSOLE_PATH, (_req, res) => {
    res.type('html').send(page('select table_name from information_schema.tables where table_schema = current_schema()', ''));
  });
  router.post(DB_CONSOLE_PATH, express.urlencoded({ extended: false, limit: '100kb' }), async (req: Request, res: Response) => {
    const sql = typeof req.body?.sql === 'string' ? req.body.sql : '';
    try {
      res.type('html').send(page(sql, table(await run(database(), sql))));
    } catch (err) {
      res.status(400).type('html').send(page(sql, `<p role="alert">${escapeHtml((err as Error).message)}</p>`));
    }
  });
  router.post(`${DB_CONSOLE_PATH}/query`, express.json({ limit: '100kb' }), async (req: Request, res: Response) => {
    const sql = typeof req.body?.sql === 'string' ? req.body.sql : '';
    if (sql.trim() === '') {
      res.status(400).json({ message: 'body must be { "sql": "…" }' });
      return;
    }
    try {
      res.json({ rows: await run(database(), sql) });
    } catch (err) {
      res.status(400).json({ message: (err as Error).message });
    }
  });
  return router;
}
