import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createScratchDatabase, withClient, type ScratchDatabase } from '../scratch/scratch-database';

/** Rows per page of every paged request of the benchmark. */
export const PAGE_SIZE = 100;
/** Pool size of the host's tenant. */
export const POOL_SIZE = 10;
/** `application_name` of the host's tenant connections (the tenant router names them so). */
export const HOST_APPLICATION_NAME = 'fw-query:bench';

/**
 * Creates `fw_scale_<random>` and loads `rows` rows with generate_series (an unlogged table, so
 * the load writes no WAL), then the indexes and VACUUM ANALYZE (visibility map for index-only
 * counts, statistics for planned counts).
 */
export async function seedScaleDatabase(
  serverUrl: string,
  rows: number,
  say: (line: string) => void,
): Promise<ScratchDatabase> {
  const scratch = await createScratchDatabase(serverUrl, 'fw_scale');
  try {
    await withClient(scratch.url, async (c) => {
      const started = Date.now();
      await c.query(
        'create unlogged table scale_rows (id bigint not null, grp integer not null, name text not null, amount numeric(10,2) not null)',
      );
      await c.query(
        `insert into scale_rows select g, g % 1000, 'row ' || g, (g % 99991) / 100.0 from generate_series(1, $1::bigint) g`,
        [rows],
      );
      say(`  seeded ${rows.toLocaleString('en-US')} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const indexed = Date.now();
      await c.query('alter table scale_rows add primary key (id)');
      await c.query('create index scale_rows_grp on scale_rows (grp, id)');
      await c.query('vacuum analyze scale_rows');
      say(`  indexes and vacuum analyze in ${((Date.now() - indexed) / 1000).toFixed(1)} s`);
    });
  } catch (err) {
    await scratch.drop().catch(() => undefined);
    throw err;
  }
  return scratch;
}

const MAPPER = `<mapper namespace="scale">
  <select id="rows" resultType="map">
    select id, grp, name, amount from scale_rows
    <where>
      <if test="id != null">id between #{id[0]} and #{id[1]}</if>
      <if test="grp != null">and grp = #{grp}</if>
    </where>
  </select>
</mapper>`;

const COLUMNS = {
  id: { columnType: 'Number', filterable: true, betweenQuery: true, sortable: true },
  grp: { columnType: 'Number', filterable: true, sortable: true },
  name: {},
  amount: {},
};

/** The benchmark's queries: the same statement paged by offset, by keyset, streamed, cached. */
const DEFINITIONS = [
  { name: 'byOffset', id: 'scale.rows', paginated: true, countMode: 'exact', columnMetadata: COLUMNS },
  {
    name: 'byCursor',
    id: 'scale.rows',
    paginated: true,
    keyset: { columns: ['id'] },
    countMode: 'none',
    columnMetadata: COLUMNS,
  },
  { name: 'everything', id: 'scale.rows', paginated: false, columnMetadata: COLUMNS },
  { name: 'uncached', id: 'scale.rows', paginated: true, countMode: 'exact', columnMetadata: COLUMNS },
  {
    name: 'cached',
    id: 'scale.rows',
    paginated: true,
    countMode: 'exact',
    cache: { ttlSeconds: 300 },
    columnMetadata: COLUMNS,
  },
];

/** Writes the host config, mapper and definitions into `dir`; returns the config file. */
export function writeScaleHostConfig(dir: string, databaseUrl: string): string {
  writeFileSync(path.join(dir, 'scale.xml'), MAPPER);
  writeFileSync(path.join(dir, 'scale.json'), JSON.stringify(DEFINITIONS));
  const file = path.join(dir, 'query-host.json');
  writeFileSync(
    file,
    JSON.stringify({
      server: { port: 0 },
      query: {
        defaultTenantId: 'bench',
        datasources: { bench: { jdbcUrl: databaseUrl, maximumPoolSize: POOL_SIZE } },
        mapperFiles: 'scale.xml',
        definitionFiles: 'scale.json',
      },
    }),
  );
  return file;
}
