/**
 * The one `AsyncLocalStorage` of a process running fw: it carries the request context
 * (`runWithContext`) and, when a host starts OpenTelemetry, the tracing library's active context
 * (`runWithTracingContext`, used by `@fw/telemetry-node`'s context manager). One storage instead
 * of two because every enabled `AsyncLocalStorage` is copied onto every promise the process
 * creates: at thousands of work items a second a second storage costs about a microsecond per item.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** What the storage holds: both values, either of which may be absent. */
export interface AmbientFrame<R> {
  readonly request?: R;
  readonly tracing?: unknown;
}

const storage = new AsyncLocalStorage<AmbientFrame<never>>();

/** The frame now active, if any. */
export function currentFrame<R>(): AmbientFrame<R> | undefined {
  return storage.getStore() as AmbientFrame<R> | undefined;
}

/** Runs `fn` in `frame`. */
export function runInFrame<R, T>(frame: AmbientFrame<R>, fn: () => T): T {
  return storage.run(frame as AmbientFrame<never>, fn);
}

/**
 * Runs `fn` with `tracing` as the tracing library's active context; the request context stays what
 * it is. For a tracing context manager (`@fw/telemetry-node` registers one for OpenTelemetry).
 *
 * @example
 * const manager = {
 *   active: () => (currentTracingContext() as Context | undefined) ?? ROOT_CONTEXT,
 *   with: (ctx, fn, thisArg, ...args) => runWithTracingContext(ctx, () => fn.apply(thisArg, args)),
 *   // bind, enable, disable …
 * };
 */
export function runWithTracingContext<T>(tracing: unknown, fn: () => T): T {
  const frame = storage.getStore();
  return storage.run({ request: frame?.request, tracing }, fn);
}

/** The tracing library's active context, as {@link runWithTracingContext} set it. */
export function currentTracingContext(): unknown {
  return storage.getStore()?.tracing;
}
