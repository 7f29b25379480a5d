import { readTraceExportSettings } from '../tracing/trace-export-settings';
import {
  ENABLED_INSTRUMENTATIONS_VARIABLE,
  readEnabledInstrumentations,
  type InstrumentationName,
} from './enabled-instrumentations';

/** Options of {@link registerInstrumentationsFromEnv}. */
export interface RegisterInstrumentationsOptions {
  /**
   * Record a query only inside a span (default true): fw's (trigger, process, settle, outbox
   * dispatch) or the host's own. Queries outside any span would each start a trace of their own,
   * and in a host with pollers (work items, outbox, cron lease, history sweeper) that is a dozen
   * one-span traces a second while idle. `false` suits a host whose queries all answer requests
   * and that records no span around them (the query host): each request's statements are then
   * traces of their own.
   */
  requireParentSpan?: boolean;
}

/** What {@link registerInstrumentationsFromEnv} turned on. */
export interface RegisteredInstrumentations {
  /** The instrumentations now recording spans (`['pg']`), empty when none. */
  readonly enabled: readonly InstrumentationName[];
  /** Why none, when none: for the host's start-up log. */
  readonly reason?: string;
}

/** The node module each instrumentation patches when it is required. */
const PATCHED_MODULE: Record<InstrumentationName, string> = { pg: 'pg' };

let registration: Promise<RegisteredInstrumentations> | undefined;
let recording: readonly InstrumentationName[] = [];

/** The instrumentations registered in this process so far (for `startTelemetry`'s check). */
export function registeredInstrumentations(): readonly InstrumentationName[] {
  return recording;
}

/** Whether some copy of `name` is already in the module cache (then it was loaded unpatched). */
function isLoaded(name: string): boolean {
  const inNodeModules = `/node_modules/${name}/`;
  return Object.keys(require.cache).some((file) => file.replace(/\\/g, '/').includes(inNodeModules));
}

async function register(
  names: readonly InstrumentationName[],
  options: RegisterInstrumentationsOptions,
): Promise<RegisteredInstrumentations> {
  const early = names.filter((name) => isLoaded(PATCHED_MODULE[name]));
  if (early.length > 0)
    throw new Error(
      `${early.map((name) => PATCHED_MODULE[name]).join(', ')} was loaded before registerInstrumentationsFromEnv(), ` +
        'so its calls would not be traced: call it first in the entry point and load the rest with import() after it',
    );
  // Loaded on demand: a host that does not turn them on never loads them.
  const [{ registerInstrumentations }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  // The instrumentations record through the global tracer provider, which startTelemetry registers
  // later: until then (or without it) their spans are no-ops.
  registerInstrumentations({
    instrumentations: [new PgInstrumentation({ requireParentSpan: options.requireParentSpan ?? true })],
  });
  recording = names;
  return { enabled: names };
}

/**
 * Registers the instrumentations `OTEL_NODE_ENABLED_INSTRUMENTATIONS` names (only `pg` so far:
 * each query of node-postgres becomes a span, a child of the fw span it runs in, with the
 * statement in `db.query.text`) when traces are exported (see `readTraceExportSettings`);
 * otherwise loads nothing and says why. They patch a module when it is required, so this must
 * run before anything loads `pg` (`@fw/core` does): call it first in the entry point and load the
 * rest of the host with `import()` after it. A second call answers the first one's result.
 *
 * @throws RangeError for a name it does not support, or an OTEL_* value `readTraceExportSettings`
 *   refuses; Error when `pg` was loaded before it.
 * @example
 * // main.ts of a worker host: nothing imported statically here may load pg.
 * import { registerInstrumentationsFromEnv } from '@fw/telemetry-node';
 *
 * void registerInstrumentationsFromEnv().then(async () => {
 *   const { startWorkerHost } = await import('./worker-host.js'); // imports @fw/core, and so pg
 *   await startWorkerHost();
 * });
 */
export function registerInstrumentationsFromEnv(
  options: RegisterInstrumentationsOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<RegisteredInstrumentations> {
  const names = readEnabledInstrumentations(env);
  if (registration) return registration;
  if (names.length === 0)
    return Promise.resolve({ enabled: [], reason: `${ENABLED_INSTRUMENTATIONS_VARIABLE} is not set` });
  const settings = readTraceExportSettings(env);
  if (!settings.export) return Promise.resolve({ enabled: [], reason: `traces not exported: ${settings.reason}` });
  registration = register(names, options);
  return registration;
}
