-- Entities of workflow services (@fw/workflow): one table for every service, keyed by service
-- and id. `version` is the optimistic lock: an update names the version it read.
create table fw_workflow_entity (
  service             text        not null,
  id                  uuid        not null,
  tenant              text,
  flow_id             text        not null,
  state_id            text        not null,
  done_activities     jsonb       not null default '[]'::jsonb,
  data                jsonb       not null,
  version             integer     not null,
  created_time        timestamptz not null,
  last_modified_time  timestamptz not null,
  primary key (service, id)
);

create index fw_workflow_entity_state_idx on fw_workflow_entity (service, state_id);
