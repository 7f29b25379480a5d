import type { Attributes, Context, Link, SpanKind } from '@opentelemetry/api';
import type { Sampler, SamplingResult } from '@opentelemetry/sdk-trace-node';
import { isKeptNewTraceContext, type NewTraceSampling } from '@fw/telemetry';

/** The values of `OTEL_TRACES_SAMPLER` this package builds a sampler for. */
export const TRACE_SAMPLER_NAMES = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

export type TraceSamplerName = (typeof TRACE_SAMPLER_NAMES)[number];

/** The sampler the environment asks for. */
export interface TraceSamplerSettings {
  name: TraceSamplerName;
  /** The ratio of the `traceidratio` samplers (`OTEL_TRACES_SAMPLER_ARG`, default 1); absent for the others. */
  ratio?: number;
}

/**
 * Reads `OTEL_TRACES_SAMPLER` (default `parentbased_always_on`) and, for the ratio samplers,
 * `OTEL_TRACES_SAMPLER_ARG` (a number from 0 to 1, default 1). A value it cannot honour is an
 * error naming the variable (`jaeger_remote` and `xray` among them: they need their own
 * packages), where the SDK alone would log it and fall back to always on.
 */
export function readTraceSamplerSettings(env: NodeJS.ProcessEnv = process.env): TraceSamplerSettings {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  if (!(TRACE_SAMPLER_NAMES as readonly string[]).includes(name))
    throw new RangeError(
      `OTEL_TRACES_SAMPLER must be one of ${TRACE_SAMPLER_NAMES.join(', ')}, got ${JSON.stringify(name)}`,
    );
  if (!name.endsWith('traceidratio')) return { name: name as TraceSamplerName };
  const text = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!text) return { name: name as TraceSamplerName, ratio: 1 };
  const ratio = Number(text);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new RangeError(
      `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 for ${name}, got ${JSON.stringify(text)}`,
    );
  return { name: name as TraceSamplerName, ratio };
}

/** The sampler classes of the SDK (loaded on demand by the host's start). */
type SamplerClasses = Pick<
  typeof import('@opentelemetry/sdk-trace-node'),
  'AlwaysOffSampler' | 'AlwaysOnSampler' | 'ParentBasedSampler' | 'TraceIdRatioBasedSampler' | 'SamplingDecision'
>;

/** The sampler of a host and the decision for new traces that goes with it. */
export interface TraceSampling {
  sampler: Sampler;
  /** For `@fw/telemetry`'s `registerNewTraceSampling`; absent when no draw can stand for the sampler. */
  newTraces?: NewTraceSampling;
}

/** What one `OTEL_TRACES_SAMPLER` value is: its sampler, and the chance it gives a new trace when a draw can stand for it. */
type SamplerRecipe = (sdk: SamplerClasses, ratio: number) => { inner: Sampler; newTraceChance?: number };

const RECIPES: Record<TraceSamplerName, SamplerRecipe> = {
  always_on: (sdk) => ({ inner: new sdk.AlwaysOnSampler(), newTraceChance: 1 }),
  always_off: (sdk) => ({ inner: new sdk.AlwaysOffSampler(), newTraceChance: 0 }),
  // No draw: this sampler also decides the spans under a kept parent by the trace id, and a trace
  // kept by a draw would lose them.
  traceidratio: (sdk, ratio) => ({ inner: new sdk.TraceIdRatioBasedSampler(ratio) }),
  parentbased_always_on: (sdk) => ({
    inner: new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() }),
    newTraceChance: 1,
  }),
  parentbased_always_off: (sdk) => ({
    inner: new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() }),
    newTraceChance: 0,
  }),
  parentbased_traceidratio: (sdk, ratio) => ({
    inner: new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(ratio) }),
    newTraceChance: ratio,
  }),
};

/**
 * The sampler `settings` name, as the SDK builds it from the same variables, wrapped so that a
 * span started from `@fw/telemetry`'s `KEPT_NEW_TRACE_CONTEXT` is recorded: its new trace was
 * already kept by `newTraces`, a draw with the chance the sampler gives a new trace. Every sampler
 * but plain `traceidratio` has one.
 */
export function makeTraceSampling(settings: TraceSamplerSettings, sdk: SamplerClasses): TraceSampling {
  const { inner, newTraceChance } = RECIPES[settings.name](sdk, settings.ratio ?? 1);
  const sampler = new KeptNewTraceSampler(inner, sdk.SamplingDecision.RECORD_AND_SAMPLED);
  if (newTraceChance === undefined) return { sampler };
  // Math.random() is in [0, 1): a chance of 1 keeps every trace, 0 none.
  return { sampler, newTraces: { keepNewTrace: () => Math.random() < newTraceChance } };
}

/** A sampler that records the first span of a new trace already kept, and asks `inner` for every other. */
class KeptNewTraceSampler implements Sampler {
  private readonly kept: SamplingResult;

  constructor(
    private readonly inner: Sampler,
    recordAndSampled: SamplingResult['decision'],
  ) {
    this.kept = { decision: recordAndSampled };
  }

  shouldSample(
    context: Context,
    traceId: string,
    spanName: string,
    spanKind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    if (isKeptNewTraceContext(context)) return this.kept;
    return this.inner.shouldSample(context, traceId, spanName, spanKind, attributes, links);
  }

  toString(): string {
    return this.inner.toString();
  }
}
