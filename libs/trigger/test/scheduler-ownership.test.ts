import { describeEachDatabase } from '@fw/test-support';
import {
  makeCronScheduler,
  makeCrontabStore,
  makeSchedulerLease,
  makeTriggerService,
  type CronScheduler,
  type TriggerService,
} from '@fw/trigger';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { countingTriggers, freshTenant, makeRecordingDispatch, waitFor, type CountingTriggers } from './support';

describeEachDatabase('scheduler ownership', (getDb) => {
  async function leaseRow(
    name: string,
  ): Promise<{ owner_id: string; lease_until: Date; acquired_at: Date } | undefined> {
    const { rows } = await sql<{
      owner_id: string;
      lease_until: Date;
      acquired_at: Date;
    }>`select owner_id, lease_until, acquired_at from fw_scheduler_lease where name = ${name}`.execute(
      getDb().database.db,
    );
    return rows[0];
  }

  describe('lease', () => {
    it('has one holder at a time; renews for its holder; is taken over once released or expired', async () => {
      const { database } = getDb();
      const name = `lease-${randomUUID()}`;
      const a = makeSchedulerLease({ database, name, ownerId: 'a', leaseSeconds: 1 });
      const b = makeSchedulerLease({ database, name, ownerId: 'b', leaseSeconds: 1 });
      expect(await a.acquire()).toBe(true);
      expect(await b.acquire()).toBe(false);
      expect(await a.acquire()).toBe(true); // renewal
      expect(a.isHeld()).toBe(true);
      expect(b.isHeld()).toBe(false);
      expect(await b.currentOwner()).toBe('a');
      await a.release();
      expect(a.isHeld()).toBe(false);
      expect(await b.acquire()).toBe(true);
      expect(await a.acquire()).toBe(false);
      // b stops renewing: after its lease ran out (database clock) a can take it.
      await waitFor('b’s lease to expire', async () => a.acquire(), 10_000, 100);
      expect((await leaseRow(name))?.owner_id).toBe('a');
      expect(await b.acquire()).toBe(false);
    });
  });

  describe('two schedulers on one database', () => {
    let schedulers: CronScheduler[] = [];
    let triggers: TriggerService;

    afterEach(async () => {
      for (const s of schedulers) await s.stop();
      schedulers = [];
      const crontabs = makeCrontabStore(getDb().database);
      for (const tab of await crontabs.listEnabled()) await crontabs.update(tab.id, tab.tenant, { enabled: false });
    });

    async function setUp(
      leaseSeconds: number,
      leaseName: string,
    ): Promise<{
      tenant: string;
      crontabId: string;
      a: CountingTriggers;
      b: CountingTriggers;
      sa: CronScheduler;
      sb: CronScheduler;
    }> {
      const { database } = getDb();
      const crontabs = makeCrontabStore(database);
      triggers = makeTriggerService({ database, dispatch: makeRecordingDispatch().dispatch });
      const tenant = freshTenant();
      const tab = await crontabs.add(tenant, {
        name: 'tick',
        cronExpression: '*/1 * * * * *',
        timezone: 'UTC',
        enabled: true,
        payload: { processDefName: 'import' },
      });
      const a = countingTriggers(triggers);
      const b = countingTriggers(triggers);
      const options = { database, crontabs, leaseSeconds, renewIntervalMillis: 250, leaseName };
      const sa = makeCronScheduler({ ...options, triggerService: a, ownerId: 'A' });
      const sb = makeCronScheduler({ ...options, triggerService: b, ownerId: 'B' });
      schedulers = [sa, sb];
      await sa.start();
      await sb.start();
      return { tenant, crontabId: tab.id, a, b, sa, sb };
    }

    const ownCalls = (c: CountingTriggers, crontabId: string) => c.calls.filter((i) => i.cronId === crontabId);

    it('lets only the owner fire: every scheduled second is fired by one instance, once', async () => {
      const { crontabId, a, b, sa, sb } = await setUp(30, `lease-${randomUUID()}`);
      expect(sa.isOwner()).toBe(true);
      expect(sb.isOwner()).toBe(false);
      await waitFor('three firings', () => ownCalls(a, crontabId).length >= 3, 15_000);
      expect(ownCalls(b, crontabId)).toHaveLength(0);
      const ids = [...ownCalls(a, crontabId), ...ownCalls(b, crontabId)].map((i) => i.triggerId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(sb.nextRuns().map((r) => r.crontabId)).toContain(crontabId); // it knows the schedule, but does not fire
    });

    it('hands over at once when the owner stops (lease released)', async () => {
      // A 30 s lease: a takeover within the wait below proves the release, not an expiry.
      const { crontabId, a, b, sa, sb } = await setUp(30, `lease-${randomUUID()}`);
      await waitFor('a firing by A', () => ownCalls(a, crontabId).length >= 1, 15_000);
      await sa.stop();
      const firedByA = ownCalls(a, crontabId).length;
      await waitFor('B to take over', () => sb.isOwner(), 8_000);
      await waitFor('a firing by B', () => ownCalls(b, crontabId).length >= 2, 15_000);
      expect(ownCalls(a, crontabId)).toHaveLength(firedByA);
      const ids = [...ownCalls(a, crontabId), ...ownCalls(b, crontabId)].map((i) => i.triggerId);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('takes over from a dead owner only after its lease expired', async () => {
      const leaseName = `lease-${randomUUID()}`;
      const { tenant, crontabId, a, b, sa, sb } = await setUp(3, leaseName);
      await waitFor('a firing by A', () => ownCalls(a, crontabId).length >= 1, 15_000);
      await sa.stop({ releaseLease: false }); // as if the process died: the lease row stays
      const firedByA = ownCalls(a, crontabId).length;
      const dead = await leaseRow(leaseName);
      expect(dead?.owner_id).toBe('A');

      await waitFor('B to take over', () => sb.isOwner(), 15_000);
      const taken = await leaseRow(leaseName);
      expect(taken?.owner_id).toBe('B');
      expect(taken?.acquired_at.getTime()).toBeGreaterThanOrEqual(
        dead?.lease_until.getTime() ?? Number.POSITIVE_INFINITY,
      );

      await waitFor('firings by B', () => ownCalls(b, crontabId).length >= 2, 15_000);
      // Stop B so the set of firings is final; a firing is counted when it starts and its history
      // row lands a moment later, so wait for the history to catch up before comparing.
      await sb.stop();
      expect(ownCalls(a, crontabId)).toHaveLength(firedByA);
      const history = async () =>
        (await triggers.listExecutions({ tenant, crontabId }, { page: 0, size: 100 })).content;
      await waitFor(
        'the history of every firing',
        async () => (await history()).length >= firedByA + ownCalls(b, crontabId).length,
        10_000,
      );
      const executions = await history();
      expect(new Set(executions.map((e) => e.scheduledTime)).size).toBe(executions.length);
      expect(executions.length).toBe(firedByA + ownCalls(b, crontabId).length);
    });
  });
});
