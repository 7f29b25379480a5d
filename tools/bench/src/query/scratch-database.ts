import { redactUrl } from '@fw/core';
import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** A database created for one bench run on the given server, dropped by `drop()`. */
export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`cannot connect to ${redactUrl(url)}: ${(err as Error).message} (pass --database-url postgres://user@host:port/db)`);
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates `fw_bench_<random>` on the server of `serverUrl` and loads `rows` books
 * (100 authors, 8 genres, an index on author_id), then ANALYZE.
 */
export async function createScratchDatabase(serverUrl: string, rows: number): Promise<ScratchDatabase> {
  const name = `fw_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await withClient(serverUrl, (c) => c.query(`create database ${name}`));
  const url = withDatabase(serverUrl, name);
  const drop = () => withClient(serverUrl, async (c) => void (await c.query(`drop database if exists ${name} with (force)`)));
  try {
    await withClient(url, async (c) => {
      await c.query(`create table bench_books (
        id integer primary key, title text not null, author_id integer not null,
        genre text not null, price numeric(8,2) not null, year integer not null)`);
      await c.query(
        `insert into bench_books
         select i, 'Book ' || md5(i::text), 1 + (i * 7919) % 100,
                (array['scifi','fantasy','crime','poetry','history','travel','cooking','humour'])[1 + i % 8],
                round((5 + (i * 31) % 4500 / 100.0)::numeric, 2), 1900 + i % 125
           from generate_series(1, $1::int) as s(i)`,
        [rows],
      );
      await c.query('create index bench_books_author on bench_books (author_id)');
      await c.query('analyze bench_books');
    });
  } catch (err) {
    await drop().catch(() => undefined);
    throw err;
  }
  return { url, name, drop };
}
