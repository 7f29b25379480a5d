/**
 * A definition write and its audit row commit together: when the row cannot be written, the
 * definition is not changed either (and the answer is a plain 500, details in the log only).
 */
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import rawRequest from 'supertest';
import { API, auth, makeAdminHarness, seedDefinitions } from '../support';

describeEachDatabase('audit row in the transaction of a definition write', (getDb) => {
  it('leaves the definition unchanged when its audit row cannot be stored', async () => {
    await seedDefinitions(getDb().database);
    const { app } = makeAdminHarness(getDb());
    const db = getDb().database.db;
    expect(
      (await rawRequest(app).post(`${API}/definitions`).set(auth()).send({ processType: 'kept', leaf: true })).status,
    ).toBe(201);

    // The trail refuses every further row (as a full disk or a revoked grant would).
    await sql`create function fw_test_refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit refused'; end $$`.execute(
      db,
    );
    await sql`create trigger fw_test_refuse_audit before insert on fw_admin_audit for each row execute function fw_test_refuse_audit()`.execute(
      db,
    );

    const created = await rawRequest(app)
      .post(`${API}/definitions`)
      .set(auth())
      .send({ processType: 'not-kept', leaf: true });
    expect(created.status).toBe(500);
    expect(created.body).toMatchObject({
      subErrorCode: 'FW500',
      message: expect.not.stringMatching(/audit refused|at .*\.ts/),
    });
    const updated = await rawRequest(app)
      .put(`${API}/definitions/kept`)
      .set(auth())
      .send({ leaf: true, config: { changed: 'yes' } });
    expect(updated.status).toBe(500);
    const removed = await rawRequest(app).delete(`${API}/definitions/kept`).set(auth());
    expect(removed.status).toBe(500);

    const rows = await sql<{
      process_type: string;
      definition: string;
    }>`select process_type, definition from process_definition where process_type in ('kept', 'not-kept')`.execute(db);
    expect(rows.rows.map((r) => r.process_type)).toEqual(['kept']);
    expect(JSON.parse(rows.rows[0].definition)).toMatchObject({ processType: 'kept', leaf: true, config: {} });
  });
});
