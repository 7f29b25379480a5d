import { CompiledQuery, type Kysely, type RawBuilder } from 'kysely';

/**
 * The plan the database picks for `statement` (`EXPLAIN (COSTS OFF)`, its parameters bound), one
 * line per node: for tests that hold a statement to the index it was written for, e.g. that a
 * gauge's read does not scan every finished row.
 *
 * @example
 * expect(await queryPlanOf(db, workItemFiguresStatement())).not.toContain('Seq Scan');
 */
export async function queryPlanOf<DB>(db: Kysely<DB>, statement: RawBuilder<unknown>): Promise<string> {
  const compiled = statement.compile(db);
  const { rows } = await db.executeQuery<Record<string, string>>(
    CompiledQuery.raw(`explain (costs off) ${compiled.sql}`, [...compiled.parameters]),
  );
  return rows.map((row) => Object.values(row)[0]).join('\n');
}
