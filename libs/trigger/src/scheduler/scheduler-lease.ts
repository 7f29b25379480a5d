/**
 * A named lease in `fw_scheduler_lease` that elects a single owner among instances sharing a
 * database. `acquire()` takes the lease when it is free, expired or already ours, and renews it
 * when ours; all times are the database's clock (`now()`), so instance clocks need not agree.
 *
 * Locally the lease counts as held until `start of the acquiring call + leaseSeconds`: that is
 * never later than the database's `lease_until`, so an owner stops acting before another
 * instance can take over (clock drift within a lease aside; duplicate firings are deduplicated
 * by their deterministic trigger ids anyway). A lease works on PGlite too, which a session
 * advisory lock would not across processes sharing no server.
 *
 * @example
 * const lease = makeSchedulerLease({ database, name: 'cron-scheduler', ownerId: 'host-a', leaseSeconds: 30 });
 * if (await lease.acquire()) { ... } // renew by calling acquire() again well within leaseSeconds
 * await lease.release();
 */
import type { Database } from '@fw/core';
import { sql } from 'kysely';
import { triggerDb } from '../schema/trigger-tables';

export interface SchedulerLeaseOptions {
  database: Pick<Database, 'db'>;
  /** Lease row name (one per role), for example `cron-scheduler`. */
  name: string;
  /** This instance's identity (host name, pod name, random id). */
  ownerId: string;
  /** Lease duration in seconds. */
  leaseSeconds: number;
}

export interface SchedulerLease {
  /** Takes or renews the lease; true when this instance owns it now. */
  acquire(): Promise<boolean>;
  /** Gives the lease up at once (only if ours), so another instance can take it. */
  release(): Promise<void>;
  /** True while the last successful acquire is still valid by the local clock. */
  isHeld(): boolean;
  /** The current owner per the database, or undefined when none or expired. */
  currentOwner(): Promise<string | undefined>;
}

export function makeSchedulerLease(options: SchedulerLeaseOptions): SchedulerLease {
  const db = triggerDb(options.database);
  const { name, ownerId } = options;
  const leaseMillis = Math.round(options.leaseSeconds * 1000);
  if (!(leaseMillis > 0)) throw new Error('scheduler lease: leaseSeconds must be positive');
  let heldUntil = 0;

  return {
    async acquire() {
      const startedAt = Date.now();
      const until = sql<Date>`now() + make_interval(secs => ${options.leaseSeconds})`;
      const row = await db
        .insertInto('fw_scheduler_lease')
        .values({ name, owner_id: ownerId, lease_until: until })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet({
              owner_id: ownerId,
              lease_until: until,
              renewed_at: sql<Date>`now()`,
              acquired_at: sql<Date>`case when fw_scheduler_lease.owner_id = ${ownerId} then fw_scheduler_lease.acquired_at else now() end`,
            })
            .where((eb) =>
              eb.or([
                eb('fw_scheduler_lease.owner_id', '=', ownerId),
                eb('fw_scheduler_lease.lease_until', '<', sql<Date>`now()`),
              ]),
            ),
        )
        .returning('owner_id')
        .executeTakeFirst();
      heldUntil = row?.owner_id === ownerId ? startedAt + leaseMillis : 0;
      return heldUntil > 0;
    },
    async release() {
      heldUntil = 0;
      await db.deleteFrom('fw_scheduler_lease').where('name', '=', name).where('owner_id', '=', ownerId).execute();
    },
    isHeld: () => heldUntil > Date.now(),
    async currentOwner() {
      const row = await db
        .selectFrom('fw_scheduler_lease')
        .select('owner_id')
        .where('name', '=', name)
        .where('lease_until', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return row?.owner_id;
    },
  };
}
