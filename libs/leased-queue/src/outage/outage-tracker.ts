/**
 * Quiet outages: a loop that loses its database (or broker) says so once, and once more when it is
 * back, with how long it lasted and how many attempts failed — never a line per poll. During a 3 s
 * PostgreSQL restart a runner polling every 50 ms would otherwise write 60 error lines, a hundred
 * workers 6 000, exactly when an operator reads the logs.
 *
 * @example
 * const outage = makeOutageTracker({
 *   onLost: (err) => logger.warn({ err }, 'runner lost its database; retrying quietly'),
 *   onBack: ({ millis, failures }) => logger.info({ outageMillis: millis, failures }, 'runner has its database back'),
 * });
 * try { await claim(); outage.succeeded(); } catch (err) { if (!outage.failed(err)) logger.error({ err }, 'claim failed'); }
 */
export interface OutageReport {
  /** From the first failure to the first success after it. */
  millis: number;
  /** Failed attempts during the outage. */
  failures: number;
}

export interface OutageTrackerOptions {
  /** The first failure of an outage. */
  onLost(error: unknown): void;
  /** The first success after an outage. */
  onBack(report: OutageReport): void;
  /**
   * Which failures are the outage (default: every one). Others are left to the caller — a failed
   * statement on a working connection is a bug to log where it happens, every time.
   */
  isOutage?: (error: unknown) => boolean;
  clock?: () => number;
}

export interface OutageTracker {
  /** Counts `error` into the outage when it is one (reporting the first); false when it is not, for the caller to log. */
  failed(error: unknown): boolean;
  succeeded(): void;
  /** True between a failure and the next success. */
  readonly down: boolean;
}

export function makeOutageTracker(options: OutageTrackerOptions): OutageTracker {
  const clock = options.clock ?? Date.now;
  let since: number | undefined;
  let failures = 0;
  return {
    failed(error) {
      if (options.isOutage !== undefined && !options.isOutage(error)) return false;
      failures += 1;
      if (since !== undefined) return true;
      since = clock();
      options.onLost(error);
      return true;
    },
    succeeded() {
      if (since === undefined) return;
      const report = { millis: clock() - since, failures };
      since = undefined;
      failures = 0;
      options.onBack(report);
    },
    get down() {
      return since !== undefined;
    },
  };
}

const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
]);

/**
 * Whether `error` says the database (or broker) cannot be reached, as opposed to a statement that
 * failed on a working connection: socket errors, PostgreSQL's connection exceptions (class 08) and
 * shutdown codes (57P01–57P03), a connection the client saw end. Those belong to an outage report;
 * anything else is logged where it happens.
 */
export function isConnectionError(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_ERRNOS.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code)))
    return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection (is )?closed|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
      message,
    )
  );
}
