/**
 * One input policy for both ways into the process engine: `POST /process` (and the other
 * `/process` routes) refuse what the administration API refuses — empty or blank-edged names and
 * trigger ids, values over the same limits, args that are not an object — with the 400 envelope
 * naming the field, and store nothing; and what `/process` does store, the administration API
 * answers within its own response schemas (every answer here is checked against the served
 * document).
 */
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH, STORED_TRIGGER_ID_MAX_LENGTH } from '@fw/process-service';
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import { createAdminServer, seedDefinitions, WORD_COUNT_DEFINITIONS, type AdminServer } from '../src';
import { checkedAgainst, type CheckedAgent } from './contract';
import { API, headers, testConfig } from './support';

describeEachDatabase('one input policy for /process and the administration API', (getDb) => {
  let server: AdminServer;
  let request: (target: AdminServer['app']) => CheckedAgent;

  beforeAll(async () => {
    await seedDefinitions(getDb().database, WORD_COUNT_DEFINITIONS);
    server = await createAdminServer({
      config: testConfig(getDb()),
      database: getDb().database,
      ownerId: 'input-policy-owner',
    });
    request = await checkedAgainst(server.app);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  }, 60_000);

  const storedProcesses = async (): Promise<number> => {
    const { rows } = await sql<{ n: string }>`select count(*) as n from fw_process`.execute(getDb().database.db);
    return Number(rows[0].n);
  };

  it('POST /process refuses an empty triggerId with the 400 envelope naming the field, and stores nothing', async () => {
    const before = await storedProcesses();
    const res = await request(server.app)
      .post('/process')
      .set(headers())
      .send({ processDefName: 'word-count', args: { text: 'a b' }, triggerId: '' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      code: 400,
      severity: 'ERROR',
      subErrorCode: 'P003',
      payload: null,
      errors: [{ code: '400', subErrorCode: 'P003', field: 'triggerId' }],
    });
    expect(await storedProcesses()).toBe(before);
    // The administration API refuses the same key.
    const viaTrigger = await request(server.app)
      .post(`${API}/triggers`)
      .set(headers())
      .send({ triggerId: '', payload: { processDefName: 'word-count', args: { text: 'a b' } } });
    expect(viaTrigger.status).toBe(400);
    expect(await storedProcesses()).toBe(before);
  });

  it.each([
    ['a blank-edged triggerId', { triggerId: ' key' }, 'triggerId'],
    ['a triggerId over the limit', { triggerId: 'k'.repeat(STORED_TRIGGER_ID_MAX_LENGTH + 1) }, 'triggerId'],
    ['an empty processDefName', { processDefName: '' }, 'processDefName'],
    ['a blank-edged processDefName', { processDefName: 'word-count ' }, 'processDefName'],
    ['a processDefName over the limit', { processDefName: 'w'.repeat(NAME_MAX_LENGTH + 1) }, 'processDefName'],
    ['a description over the limit', { description: 'd'.repeat(DESCRIPTION_MAX_LENGTH + 1) }, 'description'],
    ['args that are not an object', { args: [1, 2] }, 'args'],
  ])('POST /process refuses %s (400 naming the field) as the administration API does', async (_what, change, field) => {
    const before = await storedProcesses();
    const body: Record<string, unknown> = { processDefName: 'word-count', args: { text: 'a b' }, ...change };
    const res = await request(server.app).post('/process').set(headers()).send(body);
    expect({ status: res.status, field: res.body.errors?.[0]?.field }).toEqual({ status: 400, field });
    // The same values through a manual trigger (the key beside the payload): refused too.
    const { triggerId, ...payload } = body;
    const viaTrigger = await request(server.app)
      .post(`${API}/triggers`)
      .set(headers())
      .send({ ...(triggerId === undefined ? {} : { triggerId }), payload });
    expect({ status: viaTrigger.status, message: viaTrigger.body.message }).toEqual({
      status: 400,
      message: expect.stringContaining(field),
    });
    expect(await storedProcesses()).toBe(before);
  });

  it('refuses a trigger header the body would refuse, and child types or names of the event payloads the same way', async () => {
    const longHeader = await request(server.app)
      .post('/process')
      .set({ ...headers(), 'x-fw-trigger-id': 'h'.repeat(STORED_TRIGGER_ID_MAX_LENGTH + 1) })
      .send({ processDefName: 'word-count', args: { text: 'a' } });
    expect({ status: longHeader.status, field: longHeader.body.errors?.[0]?.field }).toEqual({
      status: 400,
      field: 'x-fw-trigger-id',
    });
    const completed = await request(server.app)
      .post('/process/completed')
      .set(headers())
      .send({ processId: '00000000-0000-4000-8000-000000000000', processType: 'word-count', triggerId: '' });
    expect({ status: completed.status, field: completed.body.errors?.[0]?.field }).toEqual({
      status: 400,
      field: 'triggerId',
    });
  });

  it('what /process stores at the limits, the administration API answers within its response schemas', async () => {
    const triggerId = `ext:${'t'.repeat(STORED_TRIGGER_ID_MAX_LENGTH - 8)} end`;
    const description = `${'d'.repeat(DESCRIPTION_MAX_LENGTH - 2)}\n!`;
    const created = await request(server.app)
      .post('/process')
      .set(headers())
      .send({ processDefName: 'word-count', args: { texts: ['to be', 'or not'] }, triggerId, description });
    expect(created.status).toBe(200);
    const id = created.body.payload.mutatedEntity.id as string;
    const viaHeader = await request(server.app)
      .post('/process')
      .set({ ...headers(), 'x-fw-trigger-id': 'h'.repeat(STORED_TRIGGER_ID_MAX_LENGTH) })
      .send({ processDefName: 'word-count', args: null });
    expect(viaHeader.status).toBe(200);
    // checkedAgainst rejects any answer that breaks the document's ProcessPage / ProcessDetail / Trace schemas.
    const page = await request(server.app).get(`${API}/processes`).query({ triggerId }).set(headers());
    expect(page.body.content.map((p: { id: string }) => p.id)).toEqual([id]);
    const detail = await request(server.app).get(`${API}/processes/${id}`).set(headers());
    expect(detail.body).toMatchObject({ triggerId, description, input: { texts: ['to be', 'or not'] } });
    expect((await request(server.app).get(`${API}/trace`).query({ processId: id }).set(headers())).status).toBe(200);
    expect(
      (
        await request(server.app)
          .get(`${API}/processes`)
          .query({ triggerId: 'h'.repeat(STORED_TRIGGER_ID_MAX_LENGTH) })
          .set(headers())
      ).body.totalElements,
    ).toBe(1);
  });
});
