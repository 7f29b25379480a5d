/**
 * The heartbeat: keeps the leases of the claims a holder is still working on, renewing ALL of them
 * with one statement per beat (not one per claim), and reports a claim whose renewal found it gone
 * (claimed again after its lease expired, released, or finished elsewhere).
 *
 * @example
 * const keeper = makeLeaseKeeper({
 *   intervalMillis: heartbeatIntervalMillis(true, leaseMillis), // lease / 3
 *   renew: (claims) => queue.renew(db, claims, leaseMillis),
 *   onLost: (claim) => abortControllers.get(claim.id)?.abort(),
 *   onError: (err) => logger.warn({ err }, 'heartbeat failed; retrying at the next beat'),
 * });
 * keeper.hold([claim]);
 * try { await work(claim); } finally { await keeper.release([claim]); } // then acknowledge
 */
import type { Claim } from '../queue/leased-queue';

export interface LeaseKeeperOptions<C extends Claim> {
  /** Time between beats. */
  intervalMillis: number;
  /** Renews the leases of these claims (ONE statement); resolves the ids still held. */
  renew(claims: readonly C[]): Promise<ReadonlySet<string>>;
  /** A held claim whose renewal found it gone; it is no longer held. */
  onLost(claim: C): void;
  /** A beat failed (for example the connection dropped); the claims stay held for the next beat. */
  onError(error: unknown): void;
}

export interface LeaseKeeper<C extends Claim> {
  /** Starts renewing these claims. */
  hold(claims: Iterable<C>): void;
  /**
   * Stops renewing these claims; resolves once no renewal that includes one of them is in flight,
   * so the caller's next write on them (an acknowledgement, a transaction taking their row locks)
   * never races a renewal.
   */
  release(claims: Iterable<Claim>): Promise<void>;
  /** Claims held. */
  readonly size: number;
}

/**
 * The beat interval for a `heartbeat` option: `false` → none; `{ intervalMillis }` → that;
 * `true` or undefined → a third of the lease (two missed beats still keep it), at least 10 ms.
 */
export function heartbeatIntervalMillis(
  option: boolean | { intervalMillis: number } | undefined,
  leaseMillis: number,
): number | undefined {
  if (option === false) return undefined;
  if (typeof option === 'object') return Math.max(1, option.intervalMillis);
  return Math.max(10, Math.floor(leaseMillis / 3));
}

/** Makes a keeper. Its timer runs only while it holds claims (nothing keeps a process alive). */
export function makeLeaseKeeper<C extends Claim>(options: LeaseKeeperOptions<C>): LeaseKeeper<C> {
  const held = new Map<string, C>();
  let timer: NodeJS.Timeout | undefined;
  let inFlight: { ids: ReadonlySet<string>; done: Promise<void> } | undefined;

  const stillHeld = (claim: Claim): boolean => held.get(claim.id)?.claimToken === claim.claimToken;

  function sync(): void {
    if (held.size > 0 && timer === undefined) timer = setInterval(beat, options.intervalMillis);
    else if (held.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  function beat(): void {
    // A renewal still in flight renews these same leases: skip instead of piling up statements.
    if (inFlight !== undefined || held.size === 0) return;
    const batch = [...held.values()];
    const done = options
      .renew(batch)
      .then(
        (renewed) => {
          for (const claim of batch) {
            // Released (finished) or claimed anew while the beat ran: not a loss.
            if (renewed.has(claim.id) || !stillHeld(claim)) continue;
            held.delete(claim.id);
            try {
              options.onLost(claim);
            } catch (error) {
              options.onError(error);
            }
          }
        },
        (error: unknown) => options.onError(error),
      )
      // A listener that throws must not leave a rejected promise for `release` to trip on.
      .catch(() => undefined)
      .finally(() => {
        inFlight = undefined;
        sync();
      });
    inFlight = { ids: new Set(batch.map((b) => b.id)), done };
  }

  return {
    hold(claims) {
      for (const claim of claims) held.set(claim.id, claim);
      sync();
    },
    async release(claims) {
      let racing = false;
      for (const claim of claims) {
        if (stillHeld(claim)) held.delete(claim.id);
        if (inFlight?.ids.has(claim.id)) racing = true;
      }
      sync();
      if (racing && inFlight !== undefined) await inFlight.done;
    },
    get size() {
      return held.size;
    },
  };
}
