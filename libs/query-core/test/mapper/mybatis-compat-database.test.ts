// Whole MyBatis mapper files in four namespaces (test/fixtures/mybatis), executed on PGlite and
// PostgreSQL. The expected rows are what MyBatis 3.5 returns for the same mapper, parameters and
// data, following its "Mapper XML Files" and "Dynamic SQL" chapters (issue 18).
import { isFwError } from '@fw/core';
import { describeEachDatabase } from '@fw/test-support';
import { readFile, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { parseMapperXml } from '../../src/mapper/mapper-parser';
import { MapperRegistry } from '../../src/mapper/mapper-registry';
import { type MappedStatement } from '../../src/mapper/mapper-types';
import { makeSqlQueryProvider } from '../../src/provider/sql-query-provider';
import { parseDefinitionObject } from '../../src/definition/query-definition-parser';

const FIXTURES = path.join(__dirname, '../fixtures/mybatis');

async function loadRegistry(): Promise<MapperRegistry> {
  const registry = new MapperRegistry();
  for (const file of (await readdir(FIXTURES)).filter((name) => name.endsWith('.xml')).sort()) {
    registry.add(await parseMapperXml(await readFile(path.join(FIXTURES, file), 'utf8'), `mybatis/${file}`));
  }
  registry.link();
  return registry;
}

describeEachDatabase('MyBatis mappers moved over unchanged', (getDb) => {
  let registry: MapperRegistry;

  beforeAll(async () => {
    await getDb().database.withSession(async (s) => s.exec(await readFile(path.join(FIXTURES, 'schema.sql'), 'utf8')));
    registry = await loadRegistry();
  });

  function statement(id: string): MappedStatement {
    const found = registry.getStatement(id);
    if (!found) throw new Error(`statement ${id} is not loaded`);
    return found;
  }

  async function rows(id: string, parameters: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
    const s = statement(id);
    const bound = s.render(parameters);
    return s.mapRows(
      await getDb().database.withSession((session) => session.query<Record<string, unknown>>(bound.sql, bound.values)),
    );
  }

  it('resolves an unqualified refid inside an included fragment in the including namespace (2)', async () => {
    expect(statement('Owner Mapper.allOwners').render({}).sql).toBe('select * from compat_owner order by id');
    expect(await rows('Owner Mapper.allOwners')).toEqual([
      { id: 1, name: 'Alice', city: 'Paris' },
      { id: 2, name: 'Bob', city: 'Lyon' },
      { id: 3, name: 'Carol', city: 'Paris' },
    ]);
    expect((await rows('com.example.pets.PetMapper.allPets')).map((pet) => pet.name)).toEqual(['Rex', 'Rex', 'Tom']);
  });

  it('fills a refid from an include property at load (1)', async () => {
    expect(statement('Owner Mapper.ownerColumnsByProperty').render({}).sql).toBe(
      'select o.id, o.name, o.city from compat_owner o order by o.id',
    );
    expect(await rows('Owner Mapper.ownerColumnsByProperty')).toHaveLength(3);
  });

  it('passes properties down a chain of includes across three namespaces, into attributes, text and #{...}', async () => {
    const byCity = statement('Owner Mapper.byCity');
    expect(byCity.render({ city: 'Paris' })).toEqual({
      sql: 'select o.id, o.name from compat_owner o WHERE o.city = $1 order by o.id',
      values: ['Paris'],
    });
    expect(await rows('Owner Mapper.byCity', { city: 'Paris' })).toEqual([
      { id: 1, name: 'Alice' },
      { id: 3, name: 'Carol' },
    ]);
    expect(await rows('Owner Mapper.byCity')).toHaveLength(3);
  });

  it('binds the property of #{id:INTEGER} and #{x,jdbcType=...} (6)', async () => {
    expect(statement('Owner Mapper.byId').render({ id: 2 })).toEqual({
      sql: 'select id, name from compat_owner where id = $1',
      values: [2],
    });
    expect(await rows('Owner Mapper.byId', { id: 2 })).toEqual([{ id: 2, name: 'Bob' }]);
    expect(await rows('com.example.pets.PetMapper.namesByOwner', { ownerId: 1 })).toEqual([
      { name: 'Rex' },
      { name: 'Rex' },
    ]);
  });

  it('fails a foreach over a null collection instead of widening, unless nullable="true" (5)', async () => {
    expect(await rows('Owner Mapper.byIds', { ids: [3, 1] })).toEqual([
      { id: 1, name: 'Alice' },
      { id: 3, name: 'Carol' },
    ]);
    await expect(rows('Owner Mapper.byIds', {})).rejects.toThrow(
      '<foreach collection="ids"> evaluated to a null value',
    );
    await expect(rows('Owner Mapper.byIds', { ids: null })).rejects.toThrow('evaluated to a null value');
    expect(await rows('Owner Mapper.byIdsOrAll', { ids: [2] })).toEqual([{ id: 2, name: 'Bob' }]);
    expect(await rows('Owner Mapper.byIdsOrAll', {})).toHaveLength(3);
  });

  it('reports the null collection to the caller as a failed query (Q721), never as rows', async () => {
    const provider = makeSqlQueryProvider({ statements: registry, databaseFor: () => getDb().database });
    const definition = parseDefinitionObject(
      JSON.stringify({ name: 'ownersById', id: 'Owner Mapper.byIds', paginated: false }),
      'test',
    );
    const request = { definition, tenantId: 't1', parameters: {}, filters: [], sort: [], mode: 'rows' as const };
    const error: unknown = await provider.execute(request).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isFwError(error) && error.subErrorCode).toBe('Q721');
    expect((await provider.execute({ ...request, parameters: { ids: [1] } })).rows).toEqual([{ id: 1, name: 'Alice' }]);
  });

  it('binds per iteration inside foreach', async () => {
    const bound = statement('Owner Mapper.byNameParts').render({ parts: ['ali', 'OB'] });
    expect(bound).toEqual({
      sql: 'select id, name from compat_owner WHERE name ilike $1 or name ilike $2 order by id',
      values: ['%ali%', '%OB%'],
    });
    expect(await rows('Owner Mapper.byNameParts', { parts: ['ali', 'OB'] })).toEqual([
      { id: 1, name: 'Alice' },
      { id: 2, name: 'Bob' },
    ]);
  });

  it('maps scalar collections, property-less ids, auto-mapped associations and notNullColumn="{a, b}" (3, 4)', async () => {
    expect(await rows('Owner Mapper.withRolesAndPets')).toEqual([
      {
        id: 1,
        name: 'Alice',
        roles: ['admin', 'user'],
        pets: [
          { name: 'Rex', breeder: { name: 'Happy Paws', country: 'FR' } },
          { name: 'Rex', breeder: null },
        ],
      },
      { id: 2, name: 'Bob', roles: ['user'], pets: [{ name: 'Tom', breeder: null }] },
      { id: 3, name: 'Carol', roles: [], pets: [] },
    ]);
  });

  it('nests collections three levels deep with columnPrefix, through a result map of another namespace', async () => {
    expect(await rows('Owner Mapper.tree')).toEqual([
      {
        id: 1,
        name: 'Alice',
        pets: [
          {
            id: 100,
            name: 'Rex',
            visits: [
              {
                id: 1000,
                vet: 'Dr A',
                treatments: [
                  { id: 5000, drug: 'aspirin' },
                  { id: 5001, drug: 'rest' },
                ],
              },
              { id: 1001, vet: 'Dr B', treatments: [] },
            ],
          },
          { id: 101, name: 'Rex', visits: [] },
        ],
      },
      {
        id: 2,
        name: 'Bob',
        pets: [
          { id: 102, name: 'Tom', visits: [{ id: 1002, vet: 'Dr A', treatments: [{ id: 5002, drug: 'water' }] }] },
        ],
      },
      { id: 3, name: 'Carol', pets: [] },
    ]);
  });

  it("picks each row's map with a discriminator: referenced case maps (with and without extends), an inline case, no case", async () => {
    expect(await rows('com.example.VehicleMapper.vehicles')).toEqual([
      { id: 1, vin: 'CAR-1', doorCount: 4 },
      { boxSize: 12 },
      // An inline case has the enclosing mappings and its own; it sets no autoMapping, so the
      // default for a map without nested maps (on) copies the other columns, as in MyBatis.
      { id: 3, vin: 'VAN-1', powerSlidingDoor: true, vehicle_type: 3, door_count: null, box_size: null },
      { id: 4, vin: 'BIKE-1' },
    ]);
  });

  it('keeps the postgresql variant of a statement with vendor variants (databaseId)', async () => {
    expect(await rows('Owner Mapper.database')).toEqual([{ db: 'postgresql', id: 'postgresql' }]);
  });
});
