import autocannon from 'autocannon';

/** One load run: a fixed number of identical requests over keep-alive connections. */
export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  requests: number;
  connections: number;
}

export interface LoadResult {
  /** Completed requests divided by the wall time of the run. */
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  completed: number;
  /** Responses that were not 2xx, plus socket errors and timeouts: a valid run has 0. */
  failures: number;
  durationSeconds: number;
}

/**
 * Runs `spec` with autocannon (HTTP/1.1 keep-alive, no pipelining) and summarises it.
 *
 * @example
 * const r = await runLoad({ url: 'http://127.0.0.1:8081/q/books', method: 'POST', body: '{}', headers: { 'content-type': 'application/json' }, requests: 1000, connections: 8 });
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const started = process.hrtime.bigint();
  let lastResponse = started;
  const run = autocannon({
    url: spec.url,
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    amount: spec.requests,
    pipelining: 1,
    timeout: 30,
  });
  // autocannon only notices that `amount` is reached on its next 1-second sample tick, so its
  // own end time (and the promise) comes up to a second late: on a run of a few seconds that
  // tail skewed req/s by ±15 %. The run ends with its last response.
  run.on('response', () => {
    lastResponse = process.hrtime.bigint();
  });
  const result = await run;
  const seconds = Number(lastResponse - started) / 1e9;
  const completed = result.requests.total;
  return {
    requestsPerSecond: completed / seconds,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    completed,
    failures: result.non2xx + result.errors + result.timeouts,
    durationSeconds: seconds,
  };
}
