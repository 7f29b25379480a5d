// The part of autocannon's API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface AutocannonOptions {
    url: string;
    connections?: number;
    amount?: number;
    duration?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeout?: number;
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    max: number;
  }
  interface AutocannonResult {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram & { p90: number; p97_5: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }
  /** The running load: an event emitter that is also a promise of the result. */
  interface AutocannonRun extends PromiseLike<AutocannonResult> {
    /** Emitted for every completed response. */
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): this;
  }
  function autocannon(options: AutocannonOptions): AutocannonRun;
  export = autocannon;
}
