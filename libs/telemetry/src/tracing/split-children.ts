import { context, ROOT_CONTEXT, SpanKind, trace, type Span } from '@opentelemetry/api';
import {
  FW_TRACER_NAME,
  messagingAttributes,
  messagingSpanName,
  startMessagingSpan,
  type FwSpanAttributes,
  type MessagingSpanOptions,
} from './messaging-spans';
import { KEPT_NEW_TRACE_CONTEXT, newTraceSampling } from './new-trace-sampling';
import { UNSAMPLED_TRACE_CONTEXT, unsampledSpanOf } from './trace-context';

/** The environment variable of {@link childrenInlineThreshold}. */
export const CHILDREN_INLINE_ENV = 'FW_TRACE_CHILDREN_INLINE';
/** Default of {@link childrenInlineThreshold}. */
export const DEFAULT_CHILDREN_INLINE = 100;

/**
 * Up to how many children of one split are traced inside the split's trace: `FW_TRACE_CHILDREN_INLINE`
 * (a whole number ≥ 0), default 100. A value that is not one is an error naming the variable.
 */
export function childrenInlineThreshold(env: NodeJS.ProcessEnv = process.env): number {
  const text = env[CHILDREN_INLINE_ENV]?.trim();
  if (!text) return DEFAULT_CHILDREN_INLINE;
  if (!/^\d+$/.test(text))
    throw new RangeError(`${CHILDREN_INLINE_ENV} must be a whole number >= 0, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** Where the children of a split of `childCount` children are traced; see {@link startSplitChildSpan}. */
export function splitChildPlacement(
  childCount: number,
  threshold: number = childrenInlineThreshold(),
): 'inline' | 'linked' {
  return childCount <= threshold ? 'inline' : 'linked';
}

/** Options of the `create` spans of a split's children: where they go and under which split. */
export type SplitChildSpanOptions = Omit<MessagingSpanOptions, keyof FwSpanAttributes | 'root'> & {
  /** See {@link childrenInlineThreshold}; read from the environment when absent. */
  threshold?: number;
};

/**
 * The options of a linked child's span (one object for every child). Its parent context is the
 * empty root context, which makes a new trace as `root: true` would, without the SDK first
 * copying the split's context to take its span out (an allocation per child).
 */
const LINKED_CHILD = { kind: SpanKind.PRODUCER } as const;

/**
 * The starter of the `create` spans of one batch of children of a split (fan-out) of
 * `childCount` children. Up to the threshold ({@link childrenInlineThreshold}) each is a child of
 * the split's span (`options.parent`, default the active context), so the whole fan-out reads as
 * one trace. Above it, each child starts a new trace whose first span links to the split's span:
 * a trace of thousands of children is too big for trace back ends to keep or show, and the link
 * still leads from child to split. Inject each returned span's context into its child's carrier.
 *
 * A child's own trace is kept or dropped by the host's `NewTraceSampling` when it registered
 * one (`@fw/telemetry-node` does): a dropped child costs a random number and gets the batch's one
 * non-recording span, whose context says "not sampled" (stored as the one-character mark); a kept
 * one starts its span with its attributes and link. Without one, the SDK's sampler decides each
 * child on its name and kind (and trace id), and the attributes and the link are set once it has
 * kept it. The placement, the tracer and the span name are settled once per batch.
 *
 * @example
 * const start = makeSplitChildSpanStarter(total, { destination: 'fw_process' }, (c: Process) => ({ processId: c.id }));
 * for (const child of children) store(child, formatSpanTraceContext(start(child)));
 */
export function makeSplitChildSpanStarter<T>(
  childCount: number,
  options: SplitChildSpanOptions,
  attributesOf: (child: T) => FwSpanAttributes,
): (child: T) => Span {
  const parent = options.parent ?? context.active();
  if (splitChildPlacement(childCount, options.threshold) === 'inline')
    return (child) => startMessagingSpan('create', { ...options, ...attributesOf(child), parent });
  const tracer = trace.getTracer(FW_TRACER_NAME);
  const name = messagingSpanName('create', options);
  const split = trace.getSpanContext(parent);
  const links = [...(split ? [{ context: split, attributes: { 'fw.link': 'split' } }] : []), ...(options.links ?? [])];
  const attributesOfChild = (child: T) => messagingAttributes('create', { ...options, ...attributesOf(child) });
  const sampling = newTraceSampling();
  if (sampling !== undefined) {
    let dropped: Span | undefined;
    return (child) =>
      sampling.keepNewTrace()
        ? tracer.startSpan(
            name,
            { ...LINKED_CHILD, attributes: attributesOfChild(child), links },
            KEPT_NEW_TRACE_CONTEXT,
          )
        : (dropped ??= unsampledSpanOf(UNSAMPLED_TRACE_CONTEXT)!);
  }
  return (child) => {
    const span = tracer.startSpan(name, LINKED_CHILD, ROOT_CONTEXT);
    if (span.isRecording()) {
      span.setAttributes(attributesOfChild(child));
      span.addLinks(links);
    }
    return span;
  };
}

/**
 * The `create` span of one child of a split of `childCount` children, placed as
 * {@link makeSplitChildSpanStarter} places them (inline up to the threshold, else a new trace
 * linked to the split).
 */
export function startSplitChildSpan(childCount: number, options: MessagingSpanOptions & { threshold?: number }): Span {
  return makeSplitChildSpanStarter(childCount, options, () => options)(undefined);
}
