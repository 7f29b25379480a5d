/** Options common to every benchmark, from the command line. */
export interface BenchOptions {
  /** Requests per measured run. */
  requests: number;
  /** Concurrent keep-alive connections of the load generator. */
  connections: number;
  /** PostgreSQL server; the bench creates (and drops) its own scratch database there. */
  databaseUrl: string;
  /** Rows loaded into the scratch database. */
  rows: number;
  /** True when `--rows` was given (a benchmark with its own default size keeps it otherwise). */
  rowsGiven?: boolean;
  /**
   * Warm-up before the measured runs (`--warmup N`, 0 for none). The query benchmarks: requests
   * per server, by default slices until the throughput is steady (see `src/query/warm-up.ts`);
   * `telemetry`: leaves of an unmeasured fan-out in each run's process (default 20,000).
   */
  warmup?: number;
  /** Finished processes the `history` benchmark seeds (`--processes N`, default 10,000,000). */
  processes?: number;
  /** Leaf processes of the fan-out benchmarks (`--leaves N`); default: each benchmark's own. */
  leaves?: number;
  /**
   * Worker OS processes of the `fanout` benchmark (`--workers K`, 0..16): 0 (default) runs
   * everything in this process; K ≥ 1 runs the runners and dispatchers in K child processes.
   */
  workers?: number;
  /** Rounds of the `compare` benchmark (`--rounds N`, default 3): each round runs every runner once. */
  rounds?: number;
  /**
   * The runners of the `compare` benchmark (`--runners fanout,bullmq`), fanout among them; default
   * all. A run at a million leaves of every peer takes an hour a round; this keeps it to those asked.
   */
  runners?: string[];
  /**
   * `compare`, `bullmq-pg`, `pgboss` (`--timeout S`): the longest one run of a peer may take, in
   * seconds; a run still going then is reported as "did not finish within S s" (compare's default: 600).
   */
  timeout?: number;
  /**
   * `compare --source`: run fanout on the TypeScript sources through tsx instead of the packages'
   * built JavaScript (what npm users run; the default, built first through Nx).
   */
  source?: boolean;
  /**
   * `compare`, `telemetry` (`--node-defaults`): run every runner's process with Node's default heap
   * instead of the young generation recommended for fan-out hosts (`--max-semi-space-size=64`).
   */
  nodeDefaults?: boolean;
  /**
   * `fanout --telemetry`: metrics recorded, served and scraped every second, spans exported over
   * OTLP to a local receiver, as a worker host with both turned on.
   */
  telemetry?: boolean;
  /** Measured runs per shape of the `startup` benchmark (`--runs N`, default 5). */
  runs?: number;
  /** Write a V8 CPU profile of the system under test into this folder. */
  cpuProfDir?: string;
}

/** Where a benchmark prints; separated so tests can capture it. */
export interface BenchIo {
  out(line: string): void;
}

/**
 * One named benchmark of `npm run bench -- <name>`. Add one by writing a runner and listing it
 * in `BENCHMARKS` (src/bench-registry.ts).
 *
 * @example
 * const engine: BenchRunner = { description: 'SQL engine render cost', run: async (options, io) => io.out('...') };
 */
export interface BenchRunner {
  description: string;
  run(options: BenchOptions, io: BenchIo): Promise<void>;
}
