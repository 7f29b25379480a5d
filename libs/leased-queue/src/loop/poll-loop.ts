/**
 * The poll loop of a queue consumer: one turn (claim and launch), then, unless the turn asks for
 * another at once (a full batch), a pause of the poll interval that `wake()` cuts short. Polling is
 * the delivery guarantee; wake-ups (a local commit, LISTEN/NOTIFY, a slot freed) only cut latency.
 * A wake-up that arrives while a turn runs is kept, so the next pause ends at once.
 *
 * @example
 * const loop = makePollLoop({
 *   pollIntervalMillis: 1000,
 *   turn: async () => (await claimAndLaunch()) === batchSize, // true: claim again without pausing
 * });
 * loop.start();
 * onCommit(() => loop.wake());
 * await loop.stop(); // after the turn in progress
 */

export interface PollLoopOptions {
  /** Longest pause between turns when idle. */
  pollIntervalMillis: number;
  /** One turn; resolves true to run the next turn without pausing. */
  turn(): Promise<boolean>;
  /** Runs after each pause with how long it lasted (e.g. to let concurrent commits gather). */
  afterPause?(pausedMillis: number): Promise<void>;
  /** A turn rejected (turns should handle their own errors; this is the last resort). */
  onError?(error: unknown): void;
}

export interface PollLoop {
  /** Starts turning (idempotent; a stopped loop does not start again). */
  start(): void;
  /** Ends the current pause now (or the next one, when a turn is running). */
  wake(): void;
  /** Stops after the turn in progress; resolves when the loop has ended. */
  stop(): Promise<void>;
  /** True once `stop()` was called. */
  readonly stopping: boolean;
}

/** Makes a loop; nothing runs until `start()`. */
export function makePollLoop(options: PollLoopOptions): PollLoop {
  let started = false;
  let stopping = false;
  let woken = false;
  let wakeUp: (() => void) | undefined;
  let done: Promise<void> = Promise.resolve();

  function wake(): void {
    woken = true;
    const resolve = wakeUp;
    wakeUp = undefined;
    resolve?.();
  }

  function pause(millis: number): Promise<void> {
    if (woken || stopping) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wakeUp = undefined;
        resolve();
      }, millis);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    }).then(() => {
      woken = false;
    });
  }

  async function run(): Promise<void> {
    while (!stopping) {
      let again = false;
      try {
        again = await options.turn();
      } catch (error) {
        options.onError?.(error);
      }
      if (!again) {
        const began = Date.now();
        await pause(options.pollIntervalMillis);
        await options.afterPause?.(Date.now() - began);
      }
    }
  }

  return {
    start() {
      if (started) return;
      started = true;
      done = run();
    },
    wake,
    stop() {
      stopping = true;
      wake();
      return done;
    },
    get stopping() {
      return stopping;
    },
  };
}
