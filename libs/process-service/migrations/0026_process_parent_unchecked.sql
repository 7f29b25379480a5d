-- The foreign key from a child to its parent (fw_process.parent_id -> fw_process.id) goes. For
-- every child inserted, PostgreSQL ran its check as an after-row trigger: one more query per
-- child (an index probe of the parent and a KEY SHARE lock on it), about a fifth of the insert of
-- a fan-out's children (27 -> 21 us a row in a fan-out of 100,000).
--
-- What it guarded is held by the code that writes and removes trees: children are inserted only
-- by the split of a parent that exists and is not finished, and retention removes a finished tree
-- whole, its processes and every row that refers to them, in one statement. The parent index
-- (fw_process_parent_id_idx) stays: it is what finds a parent's children.
alter table fw_process drop constraint if exists fw_process_parent_id_fkey;
