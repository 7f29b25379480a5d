-- Canned reports of the named query service (DECISIONS 4: request fields cannedReportName,
-- saveChangesToCannedReport, publishCannedReportToEveryone): the saved filters, sortCriteria,
-- fields and hiddenColumns of a search, kept by `makeDatabaseCannedReportStore` of @fw/query-core
-- (query host setting query.cannedReports.store = "database").
-- One row per tenant, query and report name, exactly the key of the in-memory store: a save
-- replaces owner, public, settings and updated_at of that row (insert … on conflict do update) and
-- keeps created_at. Users of one tenant share the name space; who may see or overwrite a report
-- (owner, public) is decided by the service, not by the key. The primary key also serves the
-- list of one tenant and query. The runtime account needs SELECT, INSERT and UPDATE.
create table fw_query_canned_report (
  tenant_id   text not null,
  query_name  text not null,
  name        text not null,
  -- The saver's user id; null when the search carried none (then every user of the tenant sees it).
  owner       text,
  -- Published to every user of the tenant (publishCannedReportToEveryone).
  public      boolean not null default false,
  -- { filters?, sortCriteria?, fields?, hiddenColumns? } as the request gave them.
  settings    jsonb not null check (jsonb_typeof(settings) = 'object'),
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now(),
  primary key (tenant_id, query_name, name)
);
