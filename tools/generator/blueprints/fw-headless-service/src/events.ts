// The event-source adapter: turns events into `registry.invoke` calls. An event names the
// operation and carries its input; the outcome (the response envelope, with the event's
// correlation id) goes to a callback, so the source decides where replies go (a reply topic, a
// log, nothing). Any emitter with on/off works as a source — node's EventEmitter, a broker
// client's wrapper — which keeps this adapter free of any one broker's library.
import { createLogger, FwError, type Logger, type ResponseEnvelope } from '@fw/core';
import type { ServiceRegistry } from '@fw/service';
import { failureOutcome, successOutcome } from './outcome';
import { SERVICE_NAME } from './service';

/** The channel the adapter listens on. */
export const EVENT_CHANNEL = '{{service}}';

export interface ServiceEvent {
  operation: string;
  input: unknown;
  tenant?: string;
  correlationId?: string;
}

export interface EventOutcome {
  correlationId: string | undefined;
  operation: string | undefined;
  envelope: ResponseEnvelope<unknown>;
}

export interface EventSource {
  on(channel: string, listener: (event: unknown) => void): unknown;
  off(channel: string, listener: (event: unknown) => void): unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks the envelope of an event (the input itself is checked by the operation's schema). */
export function parseEvent(raw: unknown): ServiceEvent {
  const problem = (field: string, description: string) => new FwError({ code: 400, subErrorCode: 'EVT400', description, field });
  if (!isRecord(raw)) throw problem('event', 'an event is an object { operation, input, tenant?, correlationId? }');
  if (typeof raw.operation !== 'string' || raw.operation === '') throw problem('event.operation', 'event.operation must name an operation of {{service}}');
  if (raw.tenant !== undefined && typeof raw.tenant !== 'string') throw problem('event.tenant', 'event.tenant must be a string');
  if (raw.correlationId !== undefined && typeof raw.correlationId !== 'string') throw problem('event.correlationId', 'event.correlationId must be a string');
  return { operation: raw.operation, input: raw.input ?? {}, tenant: raw.tenant, correlationId: raw.correlationId };
}

/** Handles one event; never throws (a failure is an error envelope in the outcome). */
export async function handleEvent(registry: ServiceRegistry, raw: unknown, logger: Logger = createLogger({ name: '{{serviceKebab}}-events' })): Promise<EventOutcome> {
  const correlationId = isRecord(raw) && typeof raw.correlationId === 'string' ? raw.correlationId : undefined;
  const operation = isRecord(raw) && typeof raw.operation === 'string' ? raw.operation : undefined;
  try {
    const event = parseEvent(raw);
    const output = await registry.invoke(SERVICE_NAME, event.operation, event.input, event.tenant === undefined ? {} : { tenant: event.tenant });
    return { correlationId, operation, envelope: successOutcome(output) };
  } catch (err) {
    return { correlationId, operation, envelope: failureOutcome(err, logger) };
  }
}

/**
 * Listens on {@link EVENT_CHANNEL} of `source`; every event's outcome goes to `onOutcome`.
 * Returns the function that stops listening.
 */
export function subscribe(source: EventSource, registry: ServiceRegistry, onOutcome: (outcome: EventOutcome) => void, logger?: Logger): () => void {
  const listener = (event: unknown): void => {
    void handleEvent(registry, event, logger).then(onOutcome);
  };
  source.on(EVENT_CHANNEL, listener);
  return () => {
    source.off(EVENT_CHANNEL, listener);
  };
}
