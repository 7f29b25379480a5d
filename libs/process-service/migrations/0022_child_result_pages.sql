-- The aggregator's read of its children's results (src/repository/child-result-reader.ts) as two
-- functions, so that the planner settings their statements need hold for those statements alone:
-- no bitmap or sequential scans, which leaves the ordered scan of fw_process_parent_id_idx that
-- stops after the rows asked for. Right after a split of a million children the table's statistics
-- still say the parent has a few hundred; the planner then reads a page's children through a bitmap
-- and sorts them (60 % more work for a bounded page) and, for an open `seq > …` with a LIMIT, reads
-- every remaining child to keep the first few (an aggregation of a million children took 43 s).
-- A function's SET clause is in force while it runs and set back when it returns, inside the
-- caller's transaction too, where setting and restoring the settings took three more statements.

-- One page: the terminal children (`terminal_states`) of `parent` after `after_seq`, up to
-- `through_seq` (NULL: no bound) and at most `max_children` (NULL: no limit), in `seq` order, as one
-- row of texts: ids and state ids comma-separated, types separated by `type_separator`, outputs as
-- a JSON array. The aggregates read the rows of the ordered subquery as it returns them, so the
-- n-th entry of every text is the same child's.
create function fw_child_result_page(
  parent uuid,
  after_seq bigint,
  through_seq bigint,
  max_children integer,
  terminal_states text[],
  type_separator text
) returns table (child_count integer, last_seq text, ids text, types text, states text, outputs text)
language plpgsql stable
set enable_bitmapscan = off
set enable_seqscan = off
as $$
begin
  return query
  select count(*)::integer,
         max(c.seq)::text,
         string_agg(c.id::text, ','),
         string_agg(c.process_type, type_separator),
         string_agg(c.state_id, ','),
         '[' || string_agg(coalesce(c.output::text, 'null'), ',') || ']'
  from (select p.id, p.process_type, p.state_id, p.output, p.seq
        from fw_process p
        where p.parent_id = parent
          and p.state_id = any (terminal_states)
          and p.seq > after_seq
          and p.seq <= coalesce(through_seq, 9223372036854775807)
        order by p.seq
        limit max_children) c;
end
$$;

-- The first and the last `seq` of the children of `parent` (NULLs without children): two probes of
-- the parent index, where the statistics of right after a split would have the planner read every
-- child through a bitmap and sort them.
create function fw_child_seq_span(parent uuid)
returns table (first_seq bigint, last_seq bigint)
language sql stable
set enable_bitmapscan = off
set enable_seqscan = off
as $$
  select (select c.seq from fw_process c where c.parent_id = parent order by c.seq limit 1),
         (select c.seq from fw_process c where c.parent_id = parent order by c.seq desc limit 1)
$$;
