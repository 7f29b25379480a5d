/**
 * The W3C trace context a process was created in (`fw_process.trace_context`:
 * `traceparent[,tracestate]`), kept beside the {@link Process} record rather than in it: the
 * record is what the process endpoints answer, and a trace id is no part of that answer. Only
 * processes created or read while a trace was active have one.
 */
import type { Process } from '@fw/process-api';

/**
 * Where the context is kept: a symbol-keyed property, which JSON and `Object.keys` do not see (a
 * process endpoint answers the record without it). A plain property rather than a WeakMap entry
 * (weak entries cost the collector, and a split sets thousands) or a non-enumerable one
 * (`Object.defineProperty` is a runtime call: about a microsecond per leaf of a fan-out). Being
 * enumerable, it goes along with spreads and `Object.assign`, so a copy of a process's record
 * (the event applier works on one) keeps its trace.
 */
const TRACE_CONTEXT = Symbol('fw.traceContext');

type Traced = Process & { [TRACE_CONTEXT]?: string };

/** Remembers the trace context of `process` (nothing for null). */
export function rememberTraceContext(process: Process, traceContext: string | null | undefined): void {
  if (traceContext) (process as Traced)[TRACE_CONTEXT] = traceContext;
}

/** The trace context `process` was created in, null without one. */
export function traceContextOf(process: Process): string | null {
  return (process as Traced)[TRACE_CONTEXT] ?? null;
}
