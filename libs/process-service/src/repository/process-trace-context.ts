/**
 * The W3C trace context a process was created in (`fw_process.trace_context`:
 * `traceparent[,tracestate]`), kept beside the {@link Process} record rather than in it: the
 * record is what the process endpoints answer, and a trace id is no part of that answer. Only
 * processes created or read while a trace was active have one.
 */
import type { Process } from '@fw/process-api';

const contexts = new WeakMap<Process, string>();

/** Remembers the trace context of `process` (nothing for null). */
export function rememberTraceContext(process: Process, traceContext: string | null | undefined): void {
  if (traceContext) contexts.set(process, traceContext);
}

/** The trace context `process` was created in, null without one. */
export function traceContextOf(process: Process): string | null {
  return contexts.get(process) ?? null;
}
