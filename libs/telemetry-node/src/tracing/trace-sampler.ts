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

/**
 * The sampler `settings` name, as the SDK builds it from the same variables, wrapped so that a
 * span started from `@fw/telemetry`'s `KEPT_NEW_TRACE_CONTEXT` is recorded: its new trace was
 * already kept by `newTraces`, a draw with the chance the sampler gives a new trace. The
 * parent-based and the always samplers have one; plain `traceidratio` has none, since it also
 * decides the spans under a kept parent by the trace id, and a trace kept by a draw would lose
 * them.
 */
export function makeTraceSampling(settings: TraceSamplerSettings, sdk: SamplerClasses): TraceSampling {
  const ratioOf = () => new sdk.TraceIdRatioBasedSampler(settings.ratio);
  const root: Record<TraceSamplerName, () => Sampler> = {
    always_on: () => new sdk.AlwaysOnSampler(),
    always_off: () => new sdk.AlwaysOffSampler(),
    traceidratio: ratioOf,
    parentbased_always_on: () => new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() }),
    parentbased_always_off: () => new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() }),
    parentbased_traceidratio: () => new sdk.ParentBasedSampler({ root: ratioOf() }),
  };
  const sampler = new KeptNewTraceSampler(root[settings.name](), sdk.SamplingDecision.RECORD_AND_SAMPLED);
  const chance = newTraceChance(settings);
  if (chance === undefined) return { sampler };
  const newTraces: NewTraceSampling =
    chance >= 1
      ? { keepNewTrace: () => true }
      : chance <= 0
        ? { keepNewTrace: () => false }
        : { keepNewTrace: () => Math.random() < chance };
  return { sampler, newTraces };
}

/** The chance a new trace is kept under `settings`, when a draw can decide it in the sampler's place. */
function newTraceChance(settings: TraceSamplerSettings): number | undefined {
  switch (settings.name) {
    case 'always_on':
    case 'parentbased_always_on':
      return 1;
    case 'always_off':
    case 'parentbased_always_off':
      return 0;
    case 'parentbased_traceidratio':
      return settings.ratio;
    case 'traceidratio':
      return undefined;
  }
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
