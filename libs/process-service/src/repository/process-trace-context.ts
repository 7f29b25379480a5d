/**
 * The W3C trace context a process was created in (`fw_process.trace_context`:
 * `traceparent[,tracestate]`), kept beside the {@link Process} record rather than in it: the
 * record is what the process endpoints answer, and a trace id is no part of that answer. Only
 * processes created or read while a trace was active have one.
 */
import type { Process } from '@fw/process-api';

/**
 * Where the context is kept: a symbol-keyed property that is not enumerable, so that JSON, spreads
 * and `Object.keys` do not see it (a copy of the record is an answer, not a traced process). A
 * property rather than a WeakMap entry: a split sets it on thousands of new records, and weak
 * entries cost the collector far more than a property of the record.
 */
const TRACE_CONTEXT = Symbol('fw.traceContext');

type Traced = Process & { [TRACE_CONTEXT]?: string };

/** Remembers the trace context of `process` (nothing for null). */
export function rememberTraceContext(process: Process, traceContext: string | null | undefined): void {
  if (!traceContext) return;
  if (Object.prototype.hasOwnProperty.call(process, TRACE_CONTEXT)) (process as Traced)[TRACE_CONTEXT] = traceContext;
  else Object.defineProperty(process, TRACE_CONTEXT, { value: traceContext, writable: true, enumerable: false });
}

/** The trace context `process` was created in, null without one. */
export function traceContextOf(process: Process): string | null {
  return (process as Traced)[TRACE_CONTEXT] ?? null;
}
