-- Durable delivery (spec 2 "process-outbox", fw.process.outbox.*): the transactional outbox and the
-- consumer receipts. A command row is written in the transaction of the state change that causes
-- it; dispatchers claim rows with FOR UPDATE SKIP LOCKED under a lease, fenced by claim_token.
-- Statuses: PENDING, RUNNING, DONE, DEAD.
create table fw_process_outbox (
  id            uuid primary key default gen_random_uuid(),
  -- What the command does (for example START_WORKER, CHILD_COMPLETED, PROCESS_COMPLETED).
  command_type  text not null,
  -- Commands of one group key (for example the parent process) may be executed together.
  group_key     text,
  process_id    uuid,
  tenant        text,
  payload       jsonb not null,
  status        text not null default 'PENDING',
  attempts      integer not null default 0,
  max_attempts  integer not null default 5,
  -- Earliest time the command may be claimed (backoff after a failed attempt).
  run_at        timestamptz not null default now(),
  locked_by     text,
  locked_until  timestamptz,
  claim_token   uuid,
  last_error    text,
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now(),
  finished_at   timestamptz,
  constraint fw_process_outbox_status_ck check (status in ('PENDING', 'RUNNING', 'DONE', 'DEAD')),
  constraint fw_process_outbox_attempts_ck check (attempts >= 0 and max_attempts >= 1)
);

create index fw_process_outbox_pending_idx on fw_process_outbox (run_at) where status = 'PENDING';
create index fw_process_outbox_lease_idx on fw_process_outbox (locked_until) where status = 'RUNNING';
create index fw_process_outbox_process_idx on fw_process_outbox (process_id);
create index fw_process_outbox_dead_idx on fw_process_outbox (updated_at) where status = 'DEAD';

-- Consumer receipts: written in the transaction of a command's effect, so a command executed again
-- (after a crash or a lost lease) finds its receipt and has no second effect.
create table fw_process_receipt (
  consumer     text not null,
  command_id   uuid not null,
  received_at  timestamptz not null default now(),
  primary key (consumer, command_id)
);
