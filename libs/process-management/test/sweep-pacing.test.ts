import { ConfigError } from '@fw/core';
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import {
  DEFAULT_SWEEP_DUTY_CYCLE,
  makeHistoryRetentionStore,
  makeHistorySweeper,
  pauseAfterTransaction,
  retentionSettingsFromEnv,
  sweepDutyCycleFromEnv,
  type HistoryRetentionStore,
  type SweeperLease,
} from '../src';

const always: SweeperLease = { acquire: async () => true, release: async () => undefined, isHeld: () => true };

describe('sweep pacing settings', () => {
  it('reads PROCESS_HISTORY_SWEEP_DUTY_CYCLE as a share or a percentage, default a quarter', () => {
    expect(sweepDutyCycleFromEnv({})).toBe(DEFAULT_SWEEP_DUTY_CYCLE);
    expect(DEFAULT_SWEEP_DUTY_CYCLE).toBe(0.25);
    expect(sweepDutyCycleFromEnv({ PROCESS_HISTORY_SWEEP_DUTY_CYCLE: ' 0.5 ' })).toBe(0.5);
    expect(sweepDutyCycleFromEnv({ PROCESS_HISTORY_SWEEP_DUTY_CYCLE: '40%' })).toBe(0.4);
    expect(sweepDutyCycleFromEnv({ PROCESS_HISTORY_SWEEP_DUTY_CYCLE: '1' })).toBe(1);
    for (const bad of ['0', '0%', '1.5', '120%', '-0.2', 'half', '0.5.1'])
      expect(() => sweepDutyCycleFromEnv({ PROCESS_HISTORY_SWEEP_DUTY_CYCLE: bad })).toThrow(
        new ConfigError(
          `PROCESS_HISTORY_SWEEP_DUTY_CYCLE must be a share of the time above 0 and at most 1 (0.25 or 25%), got '${bad}'`,
        ),
      );
  });

  it('pauses in proportion to the transaction: three times its length at a quarter, none at 1', () => {
    expect(pauseAfterTransaction(800, 0.25)).toBe(2400);
    expect(pauseAfterTransaction(800, 0.5)).toBe(800);
    expect(pauseAfterTransaction(800, 1)).toBe(0);
    expect(pauseAfterTransaction(0, 0.25)).toBe(0);
  });
});

describeEachDatabase('history sweeper pacing', (getDb) => {
  /** `n` finished single-process trees of tenant `paced`, 200 days old. */
  async function seedExpired(n: number): Promise<void> {
    await sql`insert into fw_process (id, process_type, leaf, tenant, flow_id, state_id, created_time, last_modified_time, state_entry_time)
      select gen_random_uuid(), 'single', true, 'paced', 'process-flow', 'PROCESSED', now() - interval '200 days' + g * interval '1 second',
        now() - interval '200 days' + g * interval '2 second', now() - interval '200 days' from generate_series(1, ${n}) g`.execute(
      getDb().database.db,
    );
  }

  /** The real store, each removal made at least `extraMillis` slower (a busy database); their durations recorded. */
  function slowStore(extraMillis: number, durations: number[], onRemoved?: () => void): HistoryRetentionStore {
    const store = makeHistoryRetentionStore(getDb().database);
    return {
      ...store,
      async removeRoots(ids) {
        const started = performance.now();
        const outcome = await store.removeRoots(ids);
        await new Promise((resolve) => setTimeout(resolve, extraMillis));
        durations.push(performance.now() - started);
        onRemoved?.();
        return outcome;
      },
    };
  }

  const sweeper = (store: HistoryRetentionStore, dutyCycle?: number, pauseMillis?: number) =>
    makeHistorySweeper({
      store,
      lease: always,
      settings: retentionSettingsFromEnv({}),
      definitions: async () => [],
      batchRows: 3,
      dutyCycle,
      pauseMillis,
    });

  it('after each removal transaction pauses in proportion to its time (duty cycle), and not at all at 1', async () => {
    await seedExpired(12);
    const durations: number[] = [];
    const half = await sweeper(slowStore(150, durations), 0.5).sweepOnce();
    expect(half.roots).toBe(12);
    expect(half.transactions).toBe(4);
    const busy = durations.reduce((a, b) => a + b, 0);
    // At a duty cycle of one half every transaction is followed by a pause as long as itself.
    expect(half.pausedMillis).toBeGreaterThanOrEqual(busy * 0.95);
    expect(half.pausedMillis).toBeLessThan(busy * 1.5 + 200);
    expect(half.millis).toBeGreaterThanOrEqual(busy + half.pausedMillis);

    await seedExpired(6);
    const unpaced = await sweeper(slowStore(150, []), 1).sweepOnce();
    expect(unpaced.roots).toBe(6);
    expect(unpaced.pausedMillis).toBeLessThan(20);
  });

  it('a stop cuts a pause short: the sweeper ends after the current transaction, not after its pause', async () => {
    await seedExpired(9);
    let removed = 0;
    let firstDone: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (firstDone = resolve));
    const s = sweeper(
      slowStore(0, [], () => {
        removed += 1;
        firstDone();
      }),
      1,
      60_000,
    );
    const pass = s.sweepOnce();
    await first;
    const stopping = performance.now();
    await s.stop();
    expect(performance.now() - stopping).toBeLessThan(5_000);
    const result = await pass;
    expect(removed).toBe(1);
    expect(result.roots).toBe(3);
    const left = await sql<{ n: string | number }>`select count(*) as n from fw_process where tenant = 'paced'`.execute(
      getDb().database.db,
    );
    expect(Number(left.rows[0].n)).toBe(6);
  });
});
