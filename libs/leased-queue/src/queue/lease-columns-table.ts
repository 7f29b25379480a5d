/**
 * Kysely column types of the lease columns (default names), for table interfaces to extend.
 *
 * @example
 * interface JobTable extends LeaseColumnsTable<'PENDING' | 'RUNNING' | 'DONE' | 'DEAD'> {
 *   id: Generated<string>;
 *   payload: ColumnType<unknown, string, string>;
 *   finished_at: Date | null;
 * }
 */
import type { Generated } from 'kysely';

export interface LeaseColumnsTable<Status extends string> {
  status: Generated<Status>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: Generated<Date>;
  locked_by: string | null;
  locked_until: Date | null;
  claim_token: string | null;
  last_error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
