/**
 * The query bench's warm-up: load on one server until its throughput stops climbing, so the
 * measured rounds see the steady state rather than code V8 has not optimised yet. A fixed short
 * warm-up (2,000 requests) left the query host's hot path still tiering up, and the default run
 * reported a host/baseline ratio well below the long run's.
 */

/**
 * Requests per warm-up slice: 1.5–3 s at this machine's rates. Slices of 2,000 (under a second)
 * swung by ±15 % from one to the next, so the 5 % rule rarely held before the cap.
 */
export const WARMUP_SLICE_REQUESTS = 5_000;
/** The warm-up always stops here: on a busy machine two slices may never agree. */
export const WARMUP_MAX_REQUESTS = 40_000;
/** Two consecutive slices whose req/s differ by less than this fraction mean the server is warm. */
export const WARMUP_STEADY_DIFFERENCE = 0.05;

/** How long to warm up: a fixed count (`--warmup N`, 0 for none) or until the throughput is steady. */
export type WarmupPlan = { kind: 'fixed'; requests: number } | { kind: 'steady' };

export interface WarmupOutcome {
  requests: number;
  /** req/s of each slice, in order (a fixed warm-up is one slice). */
  sliceRates: number[];
  /** `true` when the last two slices agreed; `false` when the cap (or a fixed count) ended it. */
  steady: boolean;
}

/** Runs `requests` requests on the server and returns their req/s. */
export type LoadSlice = (requests: number) => Promise<number>;

/** Relative difference of two throughputs, against the larger one. */
function relativeDifference(a: number, b: number): number {
  const larger = Math.max(a, b);
  return larger === 0 ? 0 : Math.abs(a - b) / larger;
}

/**
 * Warms one server up with `runSlice` according to `plan`.
 *
 * @example
 * const outcome = await warmUp((n) => runLoad(spec(host, n)).then((r) => r.requestsPerSecond), { kind: 'steady' });
 */
export async function warmUp(runSlice: LoadSlice, plan: WarmupPlan): Promise<WarmupOutcome> {
  if (plan.kind === 'fixed') {
    if (plan.requests === 0) return { requests: 0, sliceRates: [], steady: false };
    return { requests: plan.requests, sliceRates: [await runSlice(plan.requests)], steady: false };
  }
  const sliceRates: number[] = [];
  let requests = 0;
  while (requests < WARMUP_MAX_REQUESTS) {
    sliceRates.push(await runSlice(WARMUP_SLICE_REQUESTS));
    requests += WARMUP_SLICE_REQUESTS;
    // At least two slices (10,000 requests), five times the old fixed warm-up.
    if (
      sliceRates.length >= 2 &&
      relativeDifference(sliceRates[sliceRates.length - 2], sliceRates[sliceRates.length - 1]) <
        WARMUP_STEADY_DIFFERENCE
    ) {
      return { requests, sliceRates, steady: true };
    }
  }
  return { requests, sliceRates, steady: false };
}
