-- Retention of finished rows (jdbc-process-starter `successRetentionMillis`, process-outbox
-- `fw.process.outbox.done-retention-millis`; default 7 days): runners and dispatchers now and then
-- delete SUCCESS work items and DONE outbox commands finished before now() - retention, in batches of
-- `delete … where id in (select id … where status = … and finished_at < $cutoff limit n for update
-- skip locked)`. These partial indexes serve that predicate, so a sweep reads only the rows it
-- deletes instead of the whole table. DEAD rows are never deleted (they are the failure record).
-- `if not exists`: on a large live table an operator may build them beforehand with
-- `create index concurrently` under the same names (migrations run inside a transaction).
create index if not exists fw_process_work_item_finished_idx on fw_process_work_item (finished_at) where status = 'SUCCESS';
create index if not exists fw_process_outbox_finished_idx on fw_process_outbox (finished_at) where status = 'DONE';
-- The receipts of purged commands go in the same statement, looked up by the primary key
-- (consumer, command_id) with the dispatcher's consumer names: no further index needed.
