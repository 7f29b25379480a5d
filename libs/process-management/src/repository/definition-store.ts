/**
 * Writes of process definitions (`process_definition`, the `database` source). Validation reuses
 * the process service's `parseProcessDef`; a definition whose predecessor chain leads back to
 * itself is refused (400). The check and the write run in one transaction that first takes a
 * table lock writers share with nobody (`share row exclusive`: readers go on), so two concurrent
 * writes (a after b, b after a) cannot both pass a check that saw neither. The configurator's cache
 * is invalidated after every committed write on this instance; other instances call
 * POST /definitions/refresh.
 *
 * @example
 * const store = makeDefinitionStore(processDb(database));
 * await store.insert({ processType: 'report', leaf: true, predecessorProcessType: 'import' }); // false: already there
 */
import type { ProcessDef } from '@fw/process-api';
import { parseProcessDef, type ProcessDb } from '@fw/process-service';
import { sql } from 'kysely';
import { badRequest } from '../http/management-errors';

/**
 * Runs in the transaction of a write that changed a row, before it commits (the audit row of the
 * change): if it fails, the write is rolled back.
 */
export type WriteHook = (trx: ProcessDb) => Promise<void>;

export interface DefinitionStore {
  /** Inserts; `false` when a definition of that type exists; 400 when it would close a predecessor cycle. */
  insert(def: ProcessDef, onWritten?: WriteHook): Promise<boolean>;
  /** Replaces; `false` when there is none of that type; 400 when it would close a predecessor cycle. */
  update(def: ProcessDef, onWritten?: WriteHook): Promise<boolean>;
  /** Throws 400 when saving `def` would close a predecessor cycle (reads the table, not a cache). */
  assertNoCycle(def: ProcessDef): Promise<void>;
  /** Deletes the definition; false when there is none of that type. */
  remove(processType: string, onWritten?: WriteHook): Promise<boolean>;
  /** Processes of the type that have not finished yet. */
  countUnfinished(processType: string): Promise<number>;
}

/** Checks a request body as a definition (400 naming the field). */
export function parseDefinitionBody(body: unknown, where = 'definition'): ProcessDef {
  return parseProcessDef(body, where);
}

function predecessorOf(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { predecessorProcessType?: unknown };
    return typeof parsed.predecessorProcessType === 'string' ? parsed.predecessorProcessType : null;
  } catch {
    return null;
  }
}

/** The cycle `def` would close, as `a → b → a`, or undefined. */
export function findPredecessorCycle(
  def: ProcessDef,
  predecessors: ReadonlyMap<string, string | null>,
): string[] | undefined {
  const chain = [def.processType];
  const seen = new Set(chain);
  let current = def.predecessorProcessType ?? null;
  while (current !== null) {
    chain.push(current);
    if (seen.has(current)) return chain;
    seen.add(current);
    current = predecessors.get(current) ?? null;
  }
  return undefined;
}

export function makeDefinitionStore(db: ProcessDb): DefinitionStore {
  const text = (def: ProcessDef): string => JSON.stringify(def);

  async function assertNoCycleIn(handle: ProcessDb, def: ProcessDef): Promise<void> {
    const rows = await handle.selectFrom('process_definition').select(['process_type', 'definition']).execute();
    const predecessors = new Map(rows.map((r) => [r.process_type, predecessorOf(r.definition)] as const));
    const cycle = findPredecessorCycle(def, predecessors);
    if (cycle)
      throw badRequest(`Definition '${def.processType}' would close a predecessor cycle: ${cycle.join(' → ')}`);
  }

  /** Runs `write` after the cycle check, both under the writers' table lock. */
  function checkedWrite(
    def: ProcessDef,
    write: (trx: ProcessDb) => Promise<boolean>,
    onWritten: WriteHook | undefined,
  ): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      await sql`lock table process_definition in share row exclusive mode`.execute(trx);
      await assertNoCycleIn(trx, def);
      const written = await write(trx);
      if (written && onWritten) await onWritten(trx);
      return written;
    });
  }

  return {
    async remove(processType, onWritten) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('process_definition')
          .where('process_type', '=', processType)
          .executeTakeFirst();
        const removed = Number(result.numDeletedRows) === 1;
        if (removed && onWritten) await onWritten(trx);
        return removed;
      });
    },
    async countUnfinished(processType) {
      const row = await db
        .selectFrom('fw_process')
        .where('process_type', '=', processType)
        .where('state_id', 'not in', ['PROCESSED', 'PROCESSED_WITH_ERRORS'])
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    insert: (def, onWritten) =>
      checkedWrite(
        def,
        async (trx) => {
          const rows = await trx
            .insertInto('process_definition')
            .values({ process_type: def.processType, definition: text(def) })
            .onConflict((oc) => oc.column('process_type').doNothing())
            .returning('process_type')
            .execute();
          return rows.length === 1;
        },
        onWritten,
      ),

    update: (def, onWritten) =>
      checkedWrite(
        def,
        async (trx) => {
          const result = await trx
            .updateTable('process_definition')
            .set({ definition: text(def) })
            .where('process_type', '=', def.processType)
            .executeTakeFirst();
          return Number(result.numUpdatedRows) === 1;
        },
        onWritten,
      ),

    assertNoCycle: (def) => assertNoCycleIn(db, def),
  };
}
