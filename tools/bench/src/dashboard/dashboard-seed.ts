/**
 * Data of the dashboard bench, written with set-based SQL: 100,000 processes in one tenant
 * (33,133 roots with two children each, plus the trace) over 30 days, and one trace of exactly
 * 1,000 nodes: the trigger, a root with 600 children (601 processes) and 398 completion events.
 */
import type { Database } from '@fw/core';
import { sql } from 'kysely';
import type { BenchIo } from '../bench-types';

export const TENANT = 'bench';
export const TRACE_TRIGGER = 'manual:bench:trace-1000';
const TRACE_ROOT = '00000000-0000-4000-8000-000000000001';

export interface Seeded {
  processes: number;
  millis: number;
  /** Prints the database time of one refresh of the process list (page query and count). */
  refreshCost(io: BenchIo): Promise<void>;
}

export async function seedDashboardData(database: Database, io: BenchIo): Promise<Seeded> {
  const db = database.db;
  const started = performance.now();
  const roots = 33_133; // 33,133 roots × 3 + 601 trace processes = 100,000 rows
  io.out('seeding 100,000 processes …');
  await sql`
    insert into fw_process (id, process_type, leaf, parent_id, trigger_id, tenant, flow_id, state_id, split_completed,
      num_sub_processes, num_completed_sub_processes, completed_percent, input, created_time, last_modified_time, state_entry_time)
    select gen_random_uuid(), 'bench-root', false, null, 'cron:bench:' || (g % 500), ${TENANT}, 'process-flow',
      case when g % 50 = 0 then 'PROCESSED_WITH_ERRORS' when g % 10 = 0 then 'SUB_PROCESSES_PENDING' else 'PROCESSED' end, true,
      2, 2, 100, jsonb_build_object('n', g), now() - (g * interval '78 seconds'), now() - (g * interval '78 seconds') + interval '2 seconds', now() - (g * interval '78 seconds')
    from generate_series(1, ${roots}) g`.execute(db);
  await sql`
    insert into fw_process (id, process_type, leaf, parent_id, trigger_id, tenant, flow_id, state_id, input, created_time, last_modified_time, state_entry_time)
    select gen_random_uuid(), 'bench-leaf', true, r.id, r.trigger_id, ${TENANT}, 'process-flow', 'PROCESSED', '{}'::jsonb,
      r.created_time + interval '1 second', r.created_time + interval '1500 milliseconds', r.created_time + interval '1 second'
    from fw_process r cross join generate_series(1, 2) c where r.tenant = ${TENANT} and r.process_type = 'bench-root'`.execute(
    db,
  );
  await sql`
    insert into fw_process (id, process_type, leaf, parent_id, trigger_id, tenant, flow_id, state_id, split_completed, num_sub_processes, num_completed_sub_processes, completed_percent, created_time, last_modified_time, state_entry_time)
    values (${TRACE_ROOT}::uuid, 'bench-trace', false, null, ${TRACE_TRIGGER}, ${TENANT}, 'process-flow', 'SUB_PROCESSES_PENDING', true, 600, 398, 66, now() - interval '1 hour', now(), now())`.execute(
    db,
  );
  await sql`
    insert into fw_process (id, process_type, leaf, parent_id, trigger_id, tenant, flow_id, state_id, created_time, last_modified_time, state_entry_time)
    select gen_random_uuid(), 'bench-trace-item', true, ${TRACE_ROOT}::uuid, ${TRACE_TRIGGER}, ${TENANT}, 'process-flow', case when g <= 398 then 'PROCESSED' else 'EXECUTING' end,
      now() - interval '1 hour' + g * interval '5 seconds', now() - interval '1 hour' + g * interval '5 seconds' + interval '3 seconds', now() - interval '1 hour' + g * interval '5 seconds'
    from generate_series(1, 600) g`.execute(db);
  await sql`
    insert into fw_process_completion_event (id, process_id, process_type, tenant, trigger_id, state, successful, payload, generated_time)
    select gen_random_uuid(), p.id, p.process_type, ${TENANT}, p.trigger_id, 'PROCESSED', true, '{}'::jsonb, p.last_modified_time
    from fw_process p where p.parent_id = ${TRACE_ROOT}::uuid and p.state_id = 'PROCESSED'`.execute(db);
  await sql`analyze fw_process`.execute(db);
  await sql`analyze fw_process_completion_event`.execute(db);
  const count = await sql<{ n: string }>`select count(*) as n from fw_process where tenant = ${TENANT}`.execute(db);
  const millis = performance.now() - started;
  return {
    processes: Number(count.rows[0].n),
    millis,
    async refreshCost(out) {
      const explain = async (query: string, params: unknown[]) => {
        const rows = (
          await sql
            .raw(
              `explain (analyze, format json) ${query.replace(/\$(\d)/g, (_m, i: string) => `'${String(params[Number(i) - 1])}'`)}`,
            )
            .execute(db)
        ).rows as Array<Record<string, unknown>>;
        const plan = (rows[0]['QUERY PLAN'] as Array<{ 'Execution Time': number; 'Planning Time': number }>)[0];
        return plan['Execution Time'] + plan['Planning Time'];
      };
      const page = (offset: number, roots: boolean) =>
        `select * from fw_process where tenant = $1${roots ? ' and parent_id is null' : ''} order by created_time desc, seq desc limit 25 offset ${offset}`;
      for (const [label, offset, rootsOnly] of [
        ['first page', 0, false],
        ['500th page', 12_475, false],
        ['first page, roots only', 0, true],
      ] as const) {
        const times = { page: 0, count: 0 };
        for (let i = 0; i < 5; i++) {
          times.page = await explain(page(offset, rootsOnly), [TENANT]);
          times.count = await explain(
            `select count(*) from fw_process where tenant = $1${rootsOnly ? ' and parent_id is null' : ''}`,
            [TENANT],
          );
        }
        out.out(
          `database time of one refresh, ${label}: page query ${times.page.toFixed(1)} ms + count ${times.count.toFixed(1)} ms = ${(times.page + times.count).toFixed(1)} ms (EXPLAIN ANALYZE, warm)`,
        );
      }
    },
  };
}
