/**
 * Expands a set of processes to their connected execution graph within one tenant: in rounds, the
 * parents, children, predecessors, successors and the processes sharing a trigger id of what the
 * last round found, until a round finds nothing new.
 */
import type { ProcessDb } from '@fw/process-service';
import { sql } from 'kysely';
import { TRACE_COLUMNS, traceTooLarge, type TraceRow } from './trace-rows';

export interface TraceExpanderDeps {
  db: ProcessDb;
  /** Most processes the graph may hold; more fail with 413. */
  limit: number;
}

/** The ids one round looks for: the frontier's parents and predecessors not yet known. */
function upwardIds(frontier: readonly TraceRow[], known: ReadonlyMap<string, TraceRow>): Set<string> {
  const upward = new Set<string>();
  for (const r of frontier) {
    if (r.parent_id !== null && !known.has(r.parent_id)) upward.add(r.parent_id);
    if (r.predecessor_id !== null && !known.has(r.predecessor_id)) upward.add(r.predecessor_id);
  }
  return upward;
}

/** Expands `start` (and the processes of `startTriggers`) to its connected component. */
export async function expandTrace(
  { db, limit }: TraceExpanderDeps,
  tenant: string,
  start: readonly TraceRow[],
  startTriggers: readonly string[],
): Promise<TraceRow[]> {
  const known = new Map<string, TraceRow>();
  const triggers = new Set<string>(startTriggers);
  let frontier: TraceRow[] = [...start];
  for (const r of start) known.set(r.id, r);
  if (known.size > limit) throw traceTooLarge(limit);
  let newTriggers = new Set<string>();
  for (const r of start) if (r.trigger_id !== null && !triggers.has(r.trigger_id)) newTriggers.add(r.trigger_id);
  for (const t of newTriggers) triggers.add(t);
  while (frontier.length > 0 || newTriggers.size > 0) {
    const frontierIds = frontier.map((r) => r.id);
    const upward = upwardIds(frontier, known);
    const rows = await db
      .selectFrom('fw_process')
      .select(TRACE_COLUMNS)
      .where('tenant', '=', tenant)
      .where((eb) =>
        eb.or([
          sql<boolean>`id = any(${[...upward]}::uuid[])`,
          sql<boolean>`parent_id = any(${frontierIds}::uuid[])`,
          sql<boolean>`predecessor_id = any(${frontierIds}::uuid[])`,
          sql<boolean>`trigger_id = any(${[...newTriggers]}::text[])`,
        ]),
      )
      .where(sql<boolean>`not (id = any(${[...known.keys()]}::uuid[]))`)
      .limit(limit - known.size + 1)
      .execute();
    frontier = [];
    newTriggers = new Set<string>();
    for (const r of rows) {
      if (known.has(r.id)) continue;
      known.set(r.id, r);
      frontier.push(r);
      if (r.trigger_id !== null && !triggers.has(r.trigger_id)) {
        triggers.add(r.trigger_id);
        newTriggers.add(r.trigger_id);
      }
    }
    if (known.size > limit) throw traceTooLarge(limit);
  }
  return [...known.values()];
}
