/**
 * A process's times as its record gives them: ISO text in UTC to the millisecond, whatever the
 * stored precision and the session's time zone (processes are loaded with their times selected as
 * text, not parsed into dates and written back).
 */
import { createDatabase, type Database } from '@fw/core';
import { processDb } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import { create, get, makeHarness, type Harness } from './support';

describeEachDatabase('process times', (getDb) => {
  let h: Harness;
  beforeAll(() => {
    h = makeHarness(getDb());
  });

  const setTimes = (id: string, created: string, modified: string, entered: string) =>
    sql`update fw_process set created_time = ${created}::timestamptz, last_modified_time = ${modified}::timestamptz,
               state_entry_time = ${entered}::timestamptz where id = ${id}`.execute(processDb(getDb().database));

  it('gives stored microseconds as milliseconds, cut rather than rounded, as UTC ISO text', async () => {
    const p = await create(h.manager, 'batch');
    await setTimes(p.id, '2026-11-28 23:59:59.999999+00', '2026-11-28 12:00:00+00', '2026-11-29 05:45:00.000400+05:45');
    const loaded = await get(h.manager, p.id);
    expect(loaded.createdTime).toBe('2026-11-28T23:59:59.999Z');
    expect(loaded.lastModifiedTime).toBe('2026-11-28T12:00:00.000Z');
    expect(loaded.stateEntryTime).toBe('2026-11-29T00:00:00.000Z');
  });

  /**
   * A database whose every statement runs in one session, so that a `set` reaches the manager's
   * reads: PGlite's own, or on PostgreSQL a pool of one connection, closed afterwards (a `set` on
   * the shared pool would stay behind on whichever connection took it).
   */
  function oneSession(): { database: Database; close(): Promise<void> } {
    const testDb = getDb();
    if (testDb.target === 'pglite') return { database: testDb.database, close: async () => undefined };
    const database = createDatabase({ url: testDb.url, maxConnections: 1 });
    return { database, close: () => database.close() };
  }

  it('gives the same text in a session whose time zone is not UTC', async () => {
    const p = await create(h.manager, 'batch');
    await setTimes(p.id, '2026-01-02 03:04:05.678+00', '2026-01-02 03:04:05.678+00', '2026-01-02 03:04:05.678+00');
    const session = oneSession();
    const db = processDb(session.database);
    try {
      await sql`set timezone to 'Asia/Kathmandu'`.execute(db);
      const { manager } = makeHarness(getDb(), { db });
      const loaded = await get(manager, p.id);
      expect([loaded.createdTime, loaded.lastModifiedTime, loaded.stateEntryTime]).toEqual([
        '2026-01-02T03:04:05.678Z',
        '2026-01-02T03:04:05.678Z',
        '2026-01-02T03:04:05.678Z',
      ]);
    } finally {
      await sql`reset timezone`.execute(db);
      await session.close();
    }
  });

  it('keeps the times a new process was created with', async () => {
    const before = Date.now();
    const p = await create(h.manager, 'batch');
    const loaded = await get(h.manager, p.id);
    expect(loaded.createdTime).toBe(p.createdTime);
    expect(loaded.createdTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(loaded.createdTime)).toBeGreaterThanOrEqual(before - 1);
  });
});
