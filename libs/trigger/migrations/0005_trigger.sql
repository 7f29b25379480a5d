-- Trigger layer (spec 2 "End-to-end lifecycle", "Stored history"; DECISIONS 2 and 5): the trigger
-- idempotency log, the execution history of accepted dispatches, durable crontabs and the lease
-- that elects the single cron scheduler owner.

-- TriggerLog: idempotency data only. One row per (trigger_id, event_name); a second trigger with
-- the same pair conflicts on the unique constraint and is answered as a duplicate.
create table fw_trigger_log (
  log_id      uuid primary key,
  trigger_id  text not null,
  event_name  text not null,
  tenant      text not null,
  event_id    uuid not null,
  created_at  timestamptz not null default now(),
  constraint fw_trigger_log_trigger_uq unique (trigger_id, event_name)
);

-- Execution history: one row per accepted dispatch (duplicates add none). Statuses: RUNNING
-- (written before dispatch), COMPLETED (dispatch returned), FAILED (dispatch threw; failure_*).
create table fw_trigger_execution (
  id              uuid primary key,
  trigger_id      text not null,
  tenant          text not null,
  source          text not null,
  scheduled_time  timestamptz,
  received_time   timestamptz not null,
  start_time      timestamptz,
  finish_time     timestamptz,
  event_name      text not null,
  payload         jsonb not null,
  status          text not null,
  failure_message text,
  failure_stack   text,
  cron_id         uuid,
  process_id      text,
  log_id          uuid not null,
  event_id        uuid not null,
  -- Insertion order: lists are newest first, stable for equal times.
  seq             bigint generated always as identity,
  constraint fw_trigger_execution_source_ck check (source in ('CRON', 'MANUAL', 'EXTERNAL')),
  constraint fw_trigger_execution_status_ck check (status in ('RUNNING', 'COMPLETED', 'FAILED'))
);

create index fw_trigger_execution_tenant_idx on fw_trigger_execution (tenant, seq desc);
create index fw_trigger_execution_trigger_idx on fw_trigger_execution (trigger_id);
create index fw_trigger_execution_cron_idx on fw_trigger_execution (cron_id, seq desc);

-- Durable ProcessCreate schedules (croner syntax, six fields with seconds first, IANA time zone).
create table fw_crontab (
  id                   uuid primary key,
  tenant               text not null,
  name                 text not null,
  cron_expression      text not null,
  timezone             text not null,
  enabled              boolean not null default true,
  payload              jsonb not null,
  created_at           timestamptz not null default now(),
  updated_at           timestamptz not null default now(),
  last_fired_at        timestamptz,
  last_scheduled_time  timestamptz,
  -- Insertion order: lists are newest first, stable for equal times.
  seq                  bigint generated always as identity,
  constraint fw_crontab_tenant_name_uq unique (tenant, name)
);

create index fw_crontab_tenant_idx on fw_crontab (tenant, seq desc);

-- Leases naming the single owner of a role (the cron scheduler: name 'cron-scheduler'). A lease
-- is taken when free or expired and renewed by its owner; times are the database's clock.
create table fw_scheduler_lease (
  name         text primary key,
  owner_id     text not null,
  lease_until  timestamptz not null,
  acquired_at  timestamptz not null default now(),
  renewed_at   timestamptz not null default now()
);
