import {
  createContextKey,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  trace,
  type Context,
  type TracerProvider,
} from '@opentelemetry/api';

/**
 * Whether a new trace is kept, decided before any span of it exists: the same chance as the
 * host's sampler gives a new trace (its ratio, or always, or never), drawn from a random number.
 *
 * A split of a million children above the inline threshold starts a million new traces, and with a
 * ratio of 0.01 the SDK would make ids, a sampler call and a non-recording span for each of the
 * 990,000 it drops. With a registered decision those children cost one random number; the kept
 * ones start from {@link KEPT_NEW_TRACE_CONTEXT}, which the host's sampler records without
 * drawing again. `@fw/telemetry-node` registers one for the samplers it builds from
 * `OTEL_TRACES_SAMPLER`; without one (another SDK set up by the host) the SDK's sampler decides
 * every child as before.
 */
export interface NewTraceSampling {
  /** True when the next new trace is to be recorded and exported. */
  keepNewTrace(): boolean;
}

const KEPT_NEW_TRACE = createContextKey('@fw/telemetry: a new trace already kept');

/**
 * The parent context of the first span of a new trace that a {@link NewTraceSampling} kept: it
 * holds no span (the span starts a new trace) and tells the host's sampler the decision is made.
 */
export const KEPT_NEW_TRACE_CONTEXT: Context = ROOT_CONTEXT.setValue(KEPT_NEW_TRACE, true);

/** True for {@link KEPT_NEW_TRACE_CONTEXT}: what a host's sampler asks to honour the decision. */
export function isKeptNewTraceContext(ctx: Context): boolean {
  return ctx.getValue(KEPT_NEW_TRACE) === true;
}

// Keyed by the tracer provider the decision belongs to: a provider registered later by someone
// else (with a sampler that knows nothing of the kept context) never gets it.
const registered = new WeakMap<TracerProvider, NewTraceSampling>();

/**
 * Registers `sampling` as the decision for new traces of `provider`, whose sampler must record the
 * spans started from {@link KEPT_NEW_TRACE_CONTEXT}. It applies while `provider` is the global
 * tracer provider.
 *
 * @example
 * const provider = new NodeTracerProvider({ sampler: honouringKeptNewTraces(sampler) });
 * provider.register();
 * registerNewTraceSampling(provider, { keepNewTrace: () => Math.random() < 0.01 });
 */
export function registerNewTraceSampling(provider: TracerProvider, sampling: NewTraceSampling): void {
  registered.set(provider, sampling);
}

/** The {@link NewTraceSampling} of the global tracer provider, if it has one. */
export function newTraceSampling(): NewTraceSampling | undefined {
  const global = trace.getTracerProvider();
  const provider = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  return registered.get(provider);
}
