-- Half of each fw_process page kept free (was 30 %, migration 0009), so that the update that
-- finishes a process always finds room for its new version on the same page and stays a heap-only
-- tuple: no new entry in any of the table's indexes. At 30 % about half of a fan-out's leaves did
-- not fit (their page held ~30 rows and room for ~12 new versions) and each of those added an
-- entry to all four indexes. Measured with `npm run bench -- fanout` at 100,000 leaves: every
-- finishing update HOT (was 45 %), 14.0 index entries per leaf (16.2), WAL 3.85 kB per leaf
-- (4.13), PostgreSQL's CPU about 8 % lower; at the end of the run the table's heap was smaller
-- (4,168 pages against 4,567: no versions moved to other pages) and its indexes half the size
-- (1,083 pages against 2,139). Applies to pages written from now on; nothing is rewritten.
alter table fw_process set (fillfactor = 50);
