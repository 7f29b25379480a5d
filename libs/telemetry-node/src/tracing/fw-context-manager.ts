/**
 * OpenTelemetry's active context kept in `@fw/core`'s storage, beside the request context.
 *
 * The SDK's default context manager brings an `AsyncLocalStorage` of its own; a host running fw
 * already has one (`@fw/core`'s request context). Node copies the value of every enabled storage
 * onto every promise and callback it creates, so two storages cost twice that on each step of each
 * work item. This manager keeps OpenTelemetry's context in `@fw/core`'s storage instead: one copy.
 * Binding functions and event emitters is the SDK's own (inherited); only where the context lives
 * differs.
 */
import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

/** Where the active context is kept: `@fw/core`'s `currentTracingContext` and `runWithTracingContext`. */
export interface TracingContextStorage {
  currentTracingContext(): unknown;
  runWithTracingContext<T>(tracing: unknown, fn: () => T): T;
}

/**
 * The context manager `startTelemetry` registers. It is handed `@fw/core`'s storage functions
 * rather than importing them: `@fw/core` loads `pg`, which a host must load only after
 * `registerInstrumentationsFromEnv()`. Its inherited `AsyncLocalStorage` is never entered, so
 * Node never enables it.
 *
 * @example
 * const provider = new NodeTracerProvider({ spanProcessors });
 * provider.register({ contextManager: new FwContextManager(await import('@fw/core')) });
 */
export class FwContextManager extends AsyncLocalStorageContextManager {
  constructor(private readonly storage: TracingContextStorage) {
    super();
  }

  override active(): Context {
    return (this.storage.currentTracingContext() as Context | undefined) ?? ROOT_CONTEXT;
  }

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.runWithTracingContext(context, () => fn.apply(thisArg, args));
  }

  /** Not supported: a context is entered with `context.with(ctx, fn)` (the API this package uses offers nothing else). */
  override attach(): never {
    throw new Error('FwContextManager does not support attach(): use context.with(ctx, fn)');
  }

  override enable(): this {
    return this;
  }

  /** Nothing to switch off: the storage is `@fw/core`'s and carries the request context too. */
  override disable(): this {
    return this;
  }
}
