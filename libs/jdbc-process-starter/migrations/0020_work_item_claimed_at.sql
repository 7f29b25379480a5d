-- When a work item was last claimed. The health view of the administration API shows how long
-- work waited from being due to being taken (`claimed_at - run_at`, the same wait as the
-- fw_work_item_wait_seconds histogram); before this column it could only show due → finished,
-- which adds the run time of the last attempt. Written by the claim statement itself (no extra
-- statement), a nullable column without a default: adding it rewrites nothing.
alter table fw_process_work_item add column if not exists claimed_at timestamptz;
