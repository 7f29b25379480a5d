-- Fewer index writes per process (issue 16, measured with `npm run bench -- fanout`): a large
-- fan-out writes every leaf's row twice (insert, then the update that finishes it) and reports it
-- to its parent once.
--
-- * fw_process keeps 30 % of each page free, so the update that finishes a process usually stays
--   on the page as a heap-only tuple (HOT: no engine update changes an indexed column) and adds no
--   entry to any of the table's indexes. Applies to pages written from now on.
-- * Only successors have a predecessor: the lookup index holds those rows instead of one NULL entry
--   for every other process (lookups by `predecessor_id = …` use it as before).
-- * Indexes no fw query uses go, each an entry per process (or per work-item write) for nothing:
--   child reports are only looked up by child_id (their primary key); completion events by
--   process_id (the process view and the trace), not by trigger or by tenant and time; work items
--   by their id, their idempotency key and the claim indexes, not by process_id. An operator who
--   wants one of them back can create it under any name: no migration touches it again.
--
-- On a large live table an operator may build fw_process_predecessor_nn_idx beforehand with
-- `create index concurrently` under the same name (migrations run inside a transaction).
alter table fw_process set (fillfactor = 70);
create index if not exists fw_process_predecessor_nn_idx on fw_process (predecessor_id) where predecessor_id is not null;
drop index if exists fw_process_predecessor_id_idx;
drop index if exists fw_process_child_report_parent_idx;
drop index if exists fw_process_completion_event_trigger_idx;
drop index if exists fw_process_completion_event_tenant_idx;
drop index if exists fw_process_work_item_process_idx;
