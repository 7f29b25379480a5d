import { describeEachDatabase, queryPlanOf } from '@fw/test-support';
import { sql } from 'kysely';
import { makeOutboxWriter, readOutboxFigures } from '../src';
import { outboxFiguresStatement } from '../src/repository/outbox-figures';

/** `readOutboxFigures`: the grouped read behind `fw_outbox_commands` and `fw_outbox_lag_seconds`. */
describeEachDatabase('outbox figures', (getDb) => {
  it('counts commands by tenant and status and gives the age of the oldest due PENDING one per tenant', async () => {
    const writer = makeOutboxWriter({ maxAttempts: 3 });
    await getDb()
      .database.db.transaction()
      .execute((trx) =>
        writer.enqueue(trx, [
          { commandType: 'FIGURES', tenant: 'of1', payload: {} },
          { commandType: 'FIGURES', tenant: 'of1', payload: {} },
          { commandType: 'FIGURES', tenant: 'of2', payload: {} },
        ]),
      );
    await sql`update fw_process_outbox set status = 'DEAD' where command_type = 'FIGURES' and tenant = 'of2'`.execute(
      getDb().database.db,
    );
    await sql`update fw_process_outbox set run_at = now() - interval '30 seconds' where command_type = 'FIGURES' and tenant = 'of1'`.execute(
      getDb().database.db,
    );

    const figures = await readOutboxFigures(getDb().database);
    const mine = figures.outboxCommands.filter((c) => c.tenant === 'of1' || c.tenant === 'of2');
    expect(mine).toEqual(
      expect.arrayContaining([
        { tenant: 'of1', status: 'PENDING', count: 2 },
        { tenant: 'of2', status: 'DEAD', count: 1 },
      ]),
    );
    expect(mine).toHaveLength(2);
    const lag = figures.outboxLag.filter((l) => l.tenant === 'of1' || l.tenant === 'of2');
    expect(lag).toHaveLength(1);
    expect(lag[0]?.tenant).toBe('of1');
    expect(lag[0]?.ageSeconds).toBeGreaterThanOrEqual(29);
  });

  it("reads the statuses' partial indexes, never past the commands already done", async () => {
    const db = getDb().database.db;
    await sql`insert into fw_process_outbox (command_type, tenant, payload, status, finished_at)
              select 'FIGURES_PLAN', 'of3', '{}'::jsonb, 'DONE', now() from generate_series(1, 20000)`.execute(db);
    await sql`analyze fw_process_outbox`.execute(db);
    const plan = await queryPlanOf(db, outboxFiguresStatement());
    expect(plan).not.toContain('Seq Scan');
    // One partial index per status (which one the planner takes for PENDING depends on its statistics).
    expect(plan).toContain('BitmapOr');
    expect(plan.match(/Bitmap Index Scan on \w+/g)).toHaveLength(3);
    const figures = await readOutboxFigures(getDb().database);
    expect(figures.outboxCommands.filter((c) => c.tenant === 'of3')).toEqual([]);
  });
});
