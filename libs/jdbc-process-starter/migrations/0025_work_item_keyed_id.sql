-- A work item's id is derived from its idempotency key, so the primary key alone keeps an item
-- from being enqueued twice and the unique index on the key goes. That index took a text entry for
-- each of an item's three row versions (enqueued, claimed, settled): three of the six index entries
-- a fan-out's leaf writes in this table, and about 15 % of its WAL.
--
-- The id, `fw_work_item_id(process_id, key)`: the first 6 bytes of the process id (a time-ordered
-- id's milliseconds, so a run's inserts share the newest pages of the primary key, as before),
-- the UUID version nibble 8 (a custom layout), then 76 bits of md5(key). Two keys share an id only
-- when their processes were created in the same millisecond and 76 bits of md5 agree; md5 serves
-- as a checksum of a key the engine builds, not as a defence against a forger (the key holds a
-- process id nobody chooses).
--
-- Upgrade in place: rows written before this migration keep their ids (version 4 or 7). A partial
-- unique index holds exactly the rows whose id is not of version 8: it keeps their keys unique and
-- lets an enqueue skip a key one of them holds. New rows never enter it (its predicate costs a byte
-- test per row version, where the id's recomputation would cost an md5), and once retention has
-- removed the old rows it is empty. Every host that enqueues must run this version: an older one's
-- `on conflict (idempotency_key)` finds no unique index and its enqueue fails.
--
-- Immutable SQL functions of one expression: PostgreSQL inlines them into the index predicate and
-- into the statements that use them.
create or replace function fw_work_item_id(process_id uuid, idempotency_key text) returns uuid
  language sql immutable parallel safe
  as $$ select (left(replace(process_id::text, '-', ''), 12) || '8' || left(md5(idempotency_key), 19))::uuid $$;

create or replace function fw_work_item_id_is_derived(id uuid) returns boolean
  language sql immutable parallel safe
  as $$ select get_byte(uuid_send(id), 6) & 240 = 128 $$;

create unique index if not exists fw_process_work_item_legacy_key_uq on fw_process_work_item (idempotency_key)
  where not fw_work_item_id_is_derived(id);

alter table fw_process_work_item drop constraint if exists fw_process_work_item_idempotency_key_uq;
