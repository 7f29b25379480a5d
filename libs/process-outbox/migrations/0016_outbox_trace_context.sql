-- The W3C trace context of an outbox command's creation (issue 27), for the dispatcher's spans to
-- continue: `traceparent`, or `traceparent,tracestate` (a traceparent has no comma). NULL when no
-- trace was active. Nullable without default: adding it rewrites nothing.
alter table fw_process_outbox add column if not exists trace_context text;
