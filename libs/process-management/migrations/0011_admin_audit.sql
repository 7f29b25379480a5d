-- Audit trail of the administration API (/process-management/api): one row per change requested
-- through it (trigger, retry, definition and crontab writes, deletes, retention runs), whether it
-- went through (ok), was refused by the caller's role or tenant scope (refused) or failed (failed).
-- Reads are not recorded. Rows are only ever inserted; `seq` orders rows written in the same
-- millisecond, newest first, and pages by time use (occurred_at, seq).
create table if not exists fw_admin_audit (
  id uuid primary key,
  seq bigserial not null,
  occurred_at timestamptz not null default now(),
  actor text not null,
  credential text not null check (credential in ('key', 'jwt')),
  tenant text,
  action text not null,
  target text,
  outcome text not null check (outcome in ('ok', 'refused', 'failed')),
  request_id text not null
);
create index if not exists fw_admin_audit_time_idx on fw_admin_audit (occurred_at desc, seq desc);
create index if not exists fw_admin_audit_actor_idx on fw_admin_audit (actor, occurred_at desc);
