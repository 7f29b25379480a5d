import { context, trace, type Span } from '@opentelemetry/api';
import { startMessagingSpan, type MessagingSpanOptions } from './messaging-spans';

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

/**
 * The `create` span of one child of a split (fan-out) of `childCount` children. Up to the
 * threshold ({@link childrenInlineThreshold}) it is a child of the split's span (`options.parent`,
 * default the active context), so the whole fan-out reads as one trace. Above it, each child
 * starts a new trace whose first span links to the split's span: a trace of thousands of children
 * is too big for trace back ends to keep or show, and the link still leads from child to split.
 * Inject the returned span's context into the child's carrier.
 */
export function startSplitChildSpan(childCount: number, options: MessagingSpanOptions & { threshold?: number }): Span {
  const parent = options.parent ?? context.active();
  if (splitChildPlacement(childCount, options.threshold) === 'inline')
    return startMessagingSpan('create', { ...options, parent });
  const split = trace.getSpanContext(parent);
  return startMessagingSpan('create', {
    ...options,
    parent,
    root: true,
    links: [...(options.links ?? []), ...(split ? [{ context: split, attributes: { 'fw.link': 'split' } }] : [])],
  });
}
