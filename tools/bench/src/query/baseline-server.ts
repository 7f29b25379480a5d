// Bare baseline of the query bench: node:http + a pg Pool running the same SQL as the query host
// (rows and count in parallel), answering the rows as JSON. No framework, no validation.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { serveOverIpc } from '../load/server-process';

export interface BaselineSpec {
  databaseUrl: string;
  poolSize: number;
  rowsSql: string;
  countSql: string;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

serveOverIpc(async () => {
  const spec = JSON.parse(process.argv[2] ?? '{}') as BaselineSpec;
  // Same conversions as @fw/core: int8 and numeric arrive as JSON numbers.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID || oid === NUMERIC_OID
        ? (v: string) => Number(v)
        : pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text'),
  } as pg.CustomTypesConfig;
  const pool = new pg.Pool({ connectionString: spec.databaseUrl, max: spec.poolSize, types });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { filters?: { authorId?: unknown } };
      const values = [body.filters?.authorId ?? null];
      Promise.all([pool.query(spec.rowsSql, values), pool.query(spec.countSql, values)]).then(
        ([rows, count]) => {
          const payload = JSON.stringify({
            success: true,
            code: 200,
            payload: { list: rows.rows, maxRows: Object.values(count.rows[0] ?? {})[0] ?? 0 },
          });
          res.writeHead(200, { 'content-type': 'application/json' }).end(payload);
        },
        () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"success":false}'),
      );
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
});
