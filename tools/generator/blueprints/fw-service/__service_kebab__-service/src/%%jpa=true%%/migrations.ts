// The schema of {{service}}, applied by @fw/core's migrator: each migration runs once per database,
// in its own transaction, recorded with a checksum in fw_schema_migrations (changing an applied
// one is refused: add a new one instead). Names carry the service's name so that several services
// sharing one database (a mini-monolith) keep separate ledger entries.
import type { Migration } from '@fw/core';

export const MIGRATIONS: readonly Migration[] = [
  {
    name: '{{serviceKebab}}-0001-create-table.sql',
    sql: `
create table if not exists "{{serviceKebab}}" (
  tenant     text        not null,
  id         text        not null,
  name       text        not null,
  quantity   integer     not null check (quantity >= 0),
  created_at timestamptz not null,
  primary key (tenant, id)
);`,
  },
];
