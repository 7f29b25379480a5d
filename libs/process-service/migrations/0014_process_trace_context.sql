-- The W3C trace context of a process's creation (issue 27): `traceparent`, or
-- `traceparent,tracestate` when the trace carries a tracestate (a traceparent has no comma).
-- NULL when no trace was active: nothing is written per process when tracing is off.
-- Nullable without default: adding it rewrites nothing.
alter table fw_process add column if not exists trace_context text;
