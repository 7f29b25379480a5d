-- The notes of {{monolith}}'s built-in service. created_at is kept as the ISO text the service
-- answers, so a note reads back byte for byte.
create table notes (
  id text primary key,
  text text not null,
  created_at text not null
);
