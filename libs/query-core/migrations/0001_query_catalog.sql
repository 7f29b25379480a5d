-- Named query catalog (spec 1, DECISIONS 4): mapper XML and query definitions loaded once at startup
-- by query hosts that enable query.catalog.jdbc. The runtime account needs SELECT only.
create table fw_query_mapper_source (
  namespace   text primary key,
  mapper_xml  text not null,
  checksum    text not null,
  enabled     boolean not null default true,
  updated_at  timestamptz not null default now()
);

create table fw_query_definition_source (
  scope_key        text not null,
  query_name       text not null,
  definition_json  text not null,
  checksum         text not null,
  enabled          boolean not null default true,
  updated_at       timestamptz not null default now(),
  primary key (scope_key, query_name)
);
