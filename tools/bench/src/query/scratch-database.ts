import {
  createScratchDatabase as createEmptyScratchDatabase,
  withClient,
  type ScratchDatabase,
} from '../scratch/scratch-database';

export type { ScratchDatabase };

/**
 * Creates `fw_bench_<random>` on the server of `serverUrl` and loads `rows` books
 * (100 authors, 8 genres, an index on author_id), then ANALYZE.
 */
export async function createScratchDatabase(serverUrl: string, rows: number): Promise<ScratchDatabase> {
  const scratch = await createEmptyScratchDatabase(serverUrl, 'fw_bench');
  const { url, drop } = scratch;
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
  return scratch;
}
