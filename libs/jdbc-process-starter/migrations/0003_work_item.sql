-- Durable worker jobs of the JDBC starter (spec 2 "jdbc-process-starter", DECISIONS 5).
-- One row per launched worker; idempotency_key = '<processId>:<processType>:<workerType>', so a
-- replayed state change never enqueues twice. Statuses: PENDING, RUNNING, SUCCESS, DEAD.
create table fw_process_work_item (
  id                   uuid primary key default gen_random_uuid(),
  idempotency_key      text not null,
  process_id           uuid not null,
  process_type         text not null,
  worker_type          text not null,
  tenant               text,
  -- The WorkerDto handed to the worker.
  payload              jsonb not null,
  status               text not null default 'PENDING',
  attempts             integer not null default 0,
  max_attempts         integer not null default 5,
  -- Earliest time the item may be claimed (backoff after a failed attempt).
  run_at               timestamptz not null default now(),
  -- The lease: who holds the item and until when; claim_token fences late acknowledgements.
  locked_by            text,
  locked_until         timestamptz,
  claim_token          uuid,
  last_error           text,
  -- DEAD items: when the failure event reached the process (null: still to be reported).
  failure_reported_at  timestamptz,
  created_at           timestamptz not null default now(),
  updated_at           timestamptz not null default now(),
  finished_at          timestamptz,
  constraint fw_process_work_item_idempotency_key_uq unique (idempotency_key),
  constraint fw_process_work_item_status_ck check (status in ('PENDING', 'RUNNING', 'SUCCESS', 'DEAD')),
  constraint fw_process_work_item_attempts_ck check (attempts >= 0 and max_attempts >= 1)
);

-- Claiming: due PENDING items in run_at order, and RUNNING items whose lease expired.
create index fw_process_work_item_pending_idx on fw_process_work_item (run_at) where status = 'PENDING';
create index fw_process_work_item_lease_idx on fw_process_work_item (locked_until) where status = 'RUNNING';
-- DEAD items whose failure has not reached the process yet (swept by runners).
create index fw_process_work_item_unreported_idx on fw_process_work_item (locked_until) where status = 'DEAD' and failure_reported_at is null;
create index fw_process_work_item_process_idx on fw_process_work_item (process_id);
