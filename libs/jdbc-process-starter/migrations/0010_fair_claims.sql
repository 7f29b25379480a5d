-- Fair claims, priorities, concurrency and rate limits of the work-item queue (issue 29).
--
-- * priority (0..9, higher first) is copied from the process definition when the item is
--   enqueued. Existing rows get the default 5 (no table rewrite: a constant default).
-- * fw_process_work_item_fair_idx serves the claim: a loose index scan visits the
--   (process type, tenant) groups that have due work, one index probe per group, and each group's
--   items are read in rank order. The rank is the due time moved one minute earlier per priority
--   level, so higher priority goes first and a waiting item of lower priority overtakes fresh
--   higher-priority work once it has waited long enough (aging: delayed, never starved).
--   Items without a tenant form one group (tenant key '').
-- * fw_process_work_rate holds one token bucket per rate-limited definition (scope 'global',
--   tenant key '') or definition and tenant (scope 'tenant'): starts per second. Claims update it
--   inside their transaction, under a transaction-scoped advisory lock of that group.
--
-- Concurrency limits need no table: a claim counts the group's RUNNING items (through the lease
-- index) under a transaction-scoped advisory lock of the group.
--
-- On a large live table an operator may build fw_process_work_item_fair_idx beforehand with
-- `create index concurrently` under the same name (migrations run inside a transaction).
alter table fw_process_work_item add column if not exists priority smallint not null default 5;
alter table fw_process_work_item drop constraint if exists fw_process_work_item_priority_ck;
alter table fw_process_work_item add constraint fw_process_work_item_priority_ck check (priority between 0 and 9) not valid;

create index if not exists fw_process_work_item_fair_idx on fw_process_work_item
  (process_type, (coalesce(tenant, '')), ((run_at at time zone 'UTC') - priority * interval '1 minute'))
  where status = 'PENDING';

create table if not exists fw_process_work_rate (
  process_type  text not null,
  -- 'tenant': one bucket per tenant of the definition; 'global': one for the definition.
  scope         text not null,
  tenant_key    text not null,
  tokens        double precision not null,
  refilled_at   timestamptz not null,
  constraint fw_process_work_rate_pk primary key (process_type, scope, tenant_key),
  constraint fw_process_work_rate_scope_ck check (scope in ('tenant', 'global'))
);
