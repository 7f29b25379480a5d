/**
 * The statements of a fair claim on `fw_process_work_item` (index `fw_process_work_item_fair_idx
 * (process_type, coalesce(tenant, ''), rank) where status = 'PENDING'`, migration 0010):
 *
 * - {@link walkGroups}: the (process type, tenant) groups with due work, found by a loose index
 *   scan (a recursive CTE: one index probe per group, whatever the backlog), starting after a
 *   cursor and wrapping around, at most `limit` of them.
 * - {@link lockGroups}: transaction-scoped advisory locks of limited groups, in one global order.
 * - {@link readBuckets} / {@link writeBuckets}: the token buckets of rate-limited groups.
 * - {@link claimGroups}: ONE `update … where id = any(array(…))` that claims expired leases
 *   first (the expired-lease scan of `@fw/leased-queue`, the same as the queue's own claim, in a
 *   CTE so that each returned row says whether it came from it: `lq_lease_expired`), then up to each group's take in rank order (`for update skip locked`), interleaved so
 *   that tenants are served in turn, within the concurrency limits counted in the statement.
 *
 * @example
 * const groups = await walkGroups(db, { after: undefined, limit: 50 });
 * const rows = await claimGroups(db, { groups: plan, limit: 50, workerId: 'w1', leaseMillis: 30_000 });
 */
import { nowPlusMillis } from '@fw/leased-queue';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { expiredWorkItemLeases, type ClaimedItemRow } from '../repository/work-item-queue';
import type { WorkItemTables } from '../schema/work-item-tables';

/** A (process type, tenant) group; items without a tenant have tenant key ''. */
export interface WorkGroup {
  processType: string;
  tenantKey: string;
}

/** What one claim may take from a group. */
export interface GroupPlan extends WorkGroup {
  /** This claim's share of the batch for the group's tenant. */
  share: number;
  /** The type's `concurrency.perTenant`, if any (RUNNING items are counted in the claim). */
  tenantCap: number | null;
  /** The type's `concurrency.global`, if any. */
  globalCap: number | null;
  /** Starts left in the group's tenant bucket, if rate-limited per tenant. */
  tenantRate: number | null;
  /** Starts left in the type's bucket, if rate-limited in all. */
  globalRate: number | null;
}

/**
 * The rank of an item: its due time, one minute earlier per priority level — the expression of
 * the index, written the same way so that the planner matches it.
 */
const rankOf = (alias: string): RawBuilder<unknown> =>
  sql.raw(`((${alias}.run_at at time zone 'UTC') - ${alias}.priority * interval '1 minute')`);
const RANK = sql.raw(`((run_at at time zone 'UTC') - priority * interval '1 minute')`);
const NOW_RANK = sql.raw(`(now() at time zone 'UTC')`);
const TENANT_KEY = sql.raw(`coalesce(tenant, '')`);
const NO_LIMIT = 2_147_483_647;
/** Class id of the advisory locks of fair claims (their object id is the group's hash). */
export const FAIR_LOCK_CLASS = 1_718_185_029;

function typeFilter(partitions: readonly string[] | undefined) {
  return partitions === undefined ? sql`` : sql` and process_type = any(${[...partitions]}::text[])`;
}

/** The first group after `(type, key)` with due work: one index probe. */
function nextGroup(type: RawBuilder<unknown>, key: RawBuilder<unknown>, partitions: readonly string[] | undefined) {
  return sql`select process_type, ${TENANT_KEY} as tenant_key from fw_process_work_item
     where status = 'PENDING' and ${RANK} <= ${NOW_RANK} and (process_type, ${TENANT_KEY}) > (${type}, ${key})${typeFilter(partitions)}
     order by process_type, ${TENANT_KEY} limit 1`;
}

/**
 * Up to `limit` groups with due work: those after `after` in (type, tenant) order, then from the
 * first group up to `after` (a round-robin cursor). Only as many probes as groups returned.
 */
export async function walkGroups(
  db: Kysely<WorkItemTables>,
  request: { after: WorkGroup | undefined; limit: number; partitions?: readonly string[] },
): Promise<WorkGroup[]> {
  const start = request.after ?? { processType: '', tenantKey: '' };
  const p = request.partitions;
  const walk = (name: string, from: WorkGroup, until: WorkGroup | undefined) => {
    // The wrap-around walk stops at the cursor instead of probing the groups already walked.
    const stop =
      until === undefined
        ? sql``
        : sql` where (${sql.ref(`${name}.process_type`)}, ${sql.ref(`${name}.tenant_key`)}) < (${until.processType}::text, ${until.tenantKey}::text)`;
    return sql`${sql.raw(name)}(process_type, tenant_key) as (
      (${nextGroup(sql`${from.processType}::text`, sql`${from.tenantKey}::text`, p)})
      union all
      select nxt.process_type, nxt.tenant_key from ${sql.raw(name)} cross join lateral (${nextGroup(sql.ref(`${name}.process_type`), sql.ref(`${name}.tenant_key`), p)}) nxt${stop})`;
  };
  const wrap =
    request.after === undefined ? sql`` : sql`, ${walk('fw_wrap', { processType: '', tenantKey: '' }, request.after)}`;
  const wrapped =
    request.after === undefined
      ? sql``
      : sql` union all (select process_type, tenant_key from fw_wrap where (process_type, tenant_key) <= (${request.after.processType}::text, ${request.after.tenantKey}::text) limit ${request.limit})`;
  const result = await sql<{ process_type: string; tenant_key: string }>`
    with recursive ${walk('fw_after', start, undefined)}${wrap}
    select process_type, tenant_key from ((select process_type, tenant_key from fw_after limit ${request.limit})${wrapped}) as fw_groups limit ${request.limit}`.execute(
    db,
  );
  return result.rows.map((r) => ({ processType: r.process_type, tenantKey: r.tenant_key }));
}

/**
 * Takes the transaction-scoped advisory locks named by `names` (a group's or a type's), sorted
 * by their hash so that claimers never wait on each other in a circle. Held until commit.
 */
export async function lockGroups(db: Kysely<WorkItemTables>, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await sql`select pg_advisory_xact_lock(${FAIR_LOCK_CLASS}::integer, h) from (select distinct hashtext(n) as h from unnest(${[...names]}::text[]) as n order by 1) as fw_locks`.execute(
    db,
  );
}

/** A token bucket as read: tokens and the seconds since its last refill (null: a new bucket). */
export interface BucketState {
  processType: string;
  scope: 'tenant' | 'global';
  tenantKey: string;
  tokens: number | null;
  elapsedSeconds: number | null;
  /** The database's clock at the read (written back as the refill time). */
  readAt: Date;
}

export type BucketKey = Pick<BucketState, 'processType' | 'scope' | 'tenantKey'>;

/** Reads the buckets of `keys` (one statement; a missing bucket comes back with null tokens). */
export async function readBuckets(db: Kysely<WorkItemTables>, keys: readonly BucketKey[]): Promise<BucketState[]> {
  const result = await sql<{
    process_type: string;
    scope: 'tenant' | 'global';
    tenant_key: string;
    tokens: number | null;
    elapsed: number | string | null;
    read_at: Date | string;
  }>`
    select k.process_type, k.scope, k.tenant_key, r.tokens, extract(epoch from c.read_at - r.refilled_at) as elapsed, c.read_at
      from unnest(${keys.map((k) => k.processType)}::text[], ${keys.map((k) => k.scope)}::text[], ${keys.map((k) => k.tenantKey)}::text[]) as k(process_type, scope, tenant_key)
      cross join (select clock_timestamp() as read_at) as c
      left join fw_process_work_rate as r on r.process_type = k.process_type and r.scope = k.scope and r.tenant_key = k.tenant_key`.execute(
    db,
  );
  return result.rows.map((r) => ({
    processType: r.process_type,
    scope: r.scope,
    tenantKey: r.tenant_key,
    tokens: r.tokens === null ? null : Number(r.tokens),
    elapsedSeconds: r.elapsed === null ? null : Number(r.elapsed),
    readAt: new Date(r.read_at),
  }));
}

/** Writes the buckets back (one statement). */
export async function writeBuckets(
  db: Kysely<WorkItemTables>,
  buckets: ReadonlyArray<BucketKey & { tokens: number; refilledAt: Date }>,
): Promise<void> {
  if (buckets.length === 0) return;
  await sql`
    insert into fw_process_work_rate (process_type, scope, tenant_key, tokens, refilled_at)
    select * from unnest(${buckets.map((b) => b.processType)}::text[], ${buckets.map((b) => b.scope)}::text[], ${buckets.map((b) => b.tenantKey)}::text[],
                         ${buckets.map((b) => b.tokens)}::double precision[], ${buckets.map((b) => b.refilledAt.toISOString())}::timestamptz[])
    on conflict (process_type, scope, tenant_key) do update set tokens = excluded.tokens, refilled_at = excluded.refilled_at`.execute(
    db,
  );
}

const nullable = (values: ReadonlyArray<number | null>) =>
  values.map((v) => (v === null ? null : Math.max(0, Math.floor(v))));

/**
 * The groups' due items with what each may take: its share, less what its tenant's RUNNING items
 * leave under `perTenant`, less its tenant's rate budget; and what the type may still take in all
 * (`global` less the type's RUNNING items, and the type's rate budget). RUNNING items are counted
 * through the lease index (there are at most as many as all runners' slots), only for a limit
 * that is set (`case`: an unlimited group counts nothing) and once per group (`offset 0` keeps
 * the planner from pulling the counts up into the per-item rows).
 */
function candidates(groups: readonly GroupPlan[]) {
  const running = (where: RawBuilder<unknown>) =>
    sql`(select count(*) from fw_process_work_item r where r.status = 'RUNNING' and ${where})`;
  const sameType = sql`r.process_type = g.process_type`;
  const sameGroup = sql`r.process_type = g.process_type and coalesce(r.tenant, '') = g.tenant_key`;
  return sql`
    select p.id, p.rank, g.ord, g.process_type, g.type_left, row_number() over (partition by g.tenant_key order by p.rank, g.ord) as pos
      from (select g.*,
                   least(g.share, case when g.tenant_cap is null then ${NO_LIMIT} else g.tenant_cap - ${running(sameGroup)} end, coalesce(g.tenant_rate, ${NO_LIMIT})) as take,
                   least(case when g.global_cap is null then ${NO_LIMIT} else g.global_cap - ${running(sameType)} end, coalesce(g.global_rate, ${NO_LIMIT})) as type_left
              from unnest(${groups.map((g) => g.processType)}::text[], ${groups.map((g) => g.tenantKey)}::text[], ${groups.map((g) => g.share)}::integer[],
                          ${nullable(groups.map((g) => g.tenantCap))}::integer[], ${nullable(groups.map((g) => g.globalCap))}::integer[],
                          ${nullable(groups.map((g) => g.tenantRate))}::integer[], ${nullable(groups.map((g) => g.globalRate))}::integer[])
                   with ordinality as g(process_type, tenant_key, share, tenant_cap, global_cap, tenant_rate, global_rate, ord)
             offset 0) as g
      cross join lateral (
        select x.id, ${rankOf('x')} as rank from fw_process_work_item x
         where x.status = 'PENDING' and x.process_type = g.process_type and coalesce(x.tenant, '') = g.tenant_key
           and ${rankOf('x')} <= ${NOW_RANK} and x.run_at <= now()
         order by ${rankOf('x')}
         limit greatest(0, g.take) for update skip locked) as p`;
}

/**
 * Claims in ONE statement: RUNNING items whose lease expired (first: a crashed runner's work
 * comes back before anything new), then the groups' due items in turns — the best-ranked item
 * of every tenant, then the second of every tenant… (`pos`), tenants in the order of the walk
 * within a turn — each group within its take, each type within what it may still take in all. Every scan skips
 * locked rows; the update finds its rows through the primary key.
 */
export async function claimGroups(
  db: Kysely<WorkItemTables>,
  request: {
    groups: readonly GroupPlan[];
    limit: number;
    workerId: string;
    leaseMillis: number;
    partitions?: readonly string[];
  },
): Promise<ClaimedItemRow[]> {
  const n = request.limit;
  const result = await sql<ClaimedItemRow>`
    with lq_expired_ids as (${expiredWorkItemLeases({ limit: n, partitions: request.partitions })})
    update fw_process_work_item as w
       set status = 'RUNNING', locked_by = ${request.workerId}, locked_until = ${nowPlusMillis(request.leaseMillis)},
           claim_token = gen_random_uuid(), attempts = w.attempts + 1, claimed_at = now(), updated_at = now()
     where w.id = any(array(
       select due.id from (
         (select e.id, 0 as pass, 0::bigint as pos, 0::bigint as ord from lq_expired_ids as e)
         union all
         (select c.id, 1, c.pos, c.ord from (
            select t.*, row_number() over (partition by t.process_type order by t.pos, t.ord) as in_type from (${candidates(request.groups)}) as t
          ) as c where c.in_type <= c.type_left)
       ) as due order by due.pass, due.pos, due.ord limit ${n}))
    returning w.id as lq_id, w.claim_token as lq_claim_token, w.attempts as lq_attempts, w.max_attempts as lq_max_attempts,
              w.last_error as lq_last_error, w.locked_by as lq_locked_by, w.locked_until as lq_locked_until,
              w.id = any(array(select x.id from lq_expired_ids as x)) as lq_lease_expired,
              w.idempotency_key, w.process_id, w.process_type, w.worker_type, w.tenant, w.payload, w.run_at`.execute(
    db,
  );
  return result.rows;
}

/**
 * Which of `groups` have due PENDING items now: one probe of the fair claim index per group (the
 * claim's own condition, `rank` and `run_at` due), however many items each holds.
 */
export async function groupsWithDueWork(
  db: Kysely<WorkItemTables>,
  groups: readonly WorkGroup[],
): Promise<WorkGroup[]> {
  if (groups.length === 0) return [];
  const result = await sql<{ process_type: string; tenant_key: string }>`
    select g.process_type, g.tenant_key
      from unnest(${groups.map((g) => g.processType)}::text[], ${groups.map((g) => g.tenantKey)}::text[]) as g(process_type, tenant_key)
     where exists (select 1 from fw_process_work_item x
                    where x.status = 'PENDING' and x.process_type = g.process_type and coalesce(x.tenant, '') = g.tenant_key
                      and ${rankOf('x')} <= ${NOW_RANK} and x.run_at <= now())`.execute(db);
  return result.rows.map((r) => ({ processType: r.process_type, tenantKey: r.tenant_key }));
}
