-- The W3C trace context of a work item's enqueueing (issue 27), for the worker's spans to continue:
-- `traceparent`, or `traceparent,tracestate` (a traceparent has no comma). NULL when no trace was
-- active. Nullable without default: adding it rewrites nothing.
alter table fw_process_work_item add column if not exists trace_context text;
