-- The health view of the administration API (issue 27) counts DEAD work items per tenant and
-- process type. DEAD rows are never deleted (they are the failure record) and no other index
-- holds them all, so this partial index keeps that count an index read over the DEAD rows only;
-- they are few, so it costs nearly nothing to maintain.
-- On a large live table an operator may build it beforehand with `create index concurrently`
-- under the same name (migrations run inside a transaction).
create index if not exists fw_process_work_item_dead_idx on fw_process_work_item (process_type, (coalesce(tenant, ''))) where status = 'DEAD';
