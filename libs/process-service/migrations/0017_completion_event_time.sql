-- The health view of the administration API (issue 27) counts the processes finished in the last
-- hour from their completion events, by tenant, process type and outcome. Completion events are
-- written in time order, so a BRIN index on generated_time finds the last hour's pages without
-- reading older history, at the cost of a few summary tuples per 128 pages instead of a B-tree
-- entry for every finished process (the tenant/time B-tree went in 0009 for that write cost).
create index if not exists fw_process_completion_event_time_brin on fw_process_completion_event using brin (generated_time);
