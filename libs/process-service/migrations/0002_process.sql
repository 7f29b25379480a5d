-- Process orchestration (spec 2, DECISIONS 2 and 5): processes, their errors, child reports,
-- completion events and database-sourced process definitions.
create table fw_process (
  id                           uuid primary key,
  process_type                 text not null,
  leaf                         boolean not null,
  parent_id                    uuid references fw_process (id),
  predecessor_id               uuid,
  trigger_id                   text,
  tenant                       text,
  flow_id                      text not null,
  state_id                     text not null,
  split_completed              boolean not null default false,
  num_sub_processes            integer not null default 0,
  num_completed_sub_processes  integer not null default 0,
  completed_percent            integer not null default 0,
  input                        jsonb,
  output                       jsonb,
  description                  text,
  created_time                 timestamptz not null,
  last_modified_time           timestamptz not null,
  state_entry_time             timestamptz not null,
  version                      integer not null default 0,
  -- Insertion order (children of one split share created_time): orders children and aggregator input.
  seq                          bigint generated always as identity
);

create index fw_process_parent_id_idx on fw_process (parent_id, seq);
create index fw_process_trigger_id_idx on fw_process (trigger_id);
create index fw_process_predecessor_id_idx on fw_process (predecessor_id);
create index fw_process_tenant_created_idx on fw_process (tenant, created_time desc);
-- Chaining is idempotent: one successor of each type per completed predecessor.
create unique index fw_process_successor_uq on fw_process (predecessor_id, process_type) where predecessor_id is not null;

-- Errors recorded on a process. owner_id is the process whose `errors` list holds the record;
-- process_id is the process that failed (the owner itself or one of its children).
create table fw_process_error (
  id                  bigserial primary key,
  owner_id            uuid not null references fw_process (id),
  process_id          uuid not null,
  time_of_completion  timestamptz not null,
  errors              jsonb not null default '[]',
  exception_message   text,
  stack_trace         text
);

create index fw_process_error_owner_idx on fw_process_error (owner_id, id);

-- Exactly-once child counting: a child's completion is counted on its parent only when this row
-- is inserted; a second report of the same child conflicts on the primary key and counts nothing.
create table fw_process_child_report (
  child_id       uuid primary key,
  parent_id      uuid not null,
  successful     boolean not null,
  reported_time  timestamptz not null
);

create index fw_process_child_report_parent_idx on fw_process_child_report (parent_id);

-- Each ProcessCompleted payload, written in the transaction that reached the terminal state.
create table fw_process_completion_event (
  id              uuid primary key,
  process_id      uuid not null,
  process_type    text not null,
  tenant          text,
  trigger_id      text,
  state           text not null,
  successful      boolean not null,
  payload         jsonb not null,
  generated_time  timestamptz not null
);

create index fw_process_completion_event_process_idx on fw_process_completion_event (process_id);
create index fw_process_completion_event_trigger_idx on fw_process_completion_event (trigger_id);
create index fw_process_completion_event_tenant_idx on fw_process_completion_event (tenant, generated_time desc);

-- Definitions of the `database` configurator (fw.process.configurator=database).
create table process_definition (
  process_type  text primary key,
  definition    text not null
);
