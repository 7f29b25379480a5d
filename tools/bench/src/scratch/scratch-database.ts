import { createDatabase, redactUrl, type Database } from '@fw/core';
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

/** Runs `fn` on a short-lived client; a failed connect names the URL and the flag to fix it. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `cannot connect to ${redactUrl(url)}: ${(err as Error).message} (pass --database-url postgres://user@host:port/db)`,
      { cause: err },
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty `<prefix>_<random>` database on the server of `serverUrl`. */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await withClient(serverUrl, (c) => c.query(`create database ${name}`));
  return {
    url: withDatabase(serverUrl, name),
    name,
    drop: () =>
      withClient(serverUrl, async (c) => void (await c.query(`drop database if exists ${name} with (force)`))),
  };
}

/**
 * A scratch database opened through `@fw/core`; `drop()` closes the pool first. `url` lets other OS
 * processes (the fan-out's worker processes) open pools of their own on it.
 */
export async function openScratchDatabase(
  serverUrl: string,
  prefix: string,
  maxConnections: number,
): Promise<{ database: Database; url: string; drop(): Promise<void> }> {
  const scratch = await createScratchDatabase(serverUrl, prefix);
  const database = createDatabase({ url: scratch.url, maxConnections });
  return {
    database,
    url: scratch.url,
    async drop() {
      await database.close();
      await scratch.drop();
    },
  };
}
