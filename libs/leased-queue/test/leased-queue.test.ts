import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import { makeLeasedQueue, type LeasedQueue } from '../src';

/** A table of its own with other column names and statuses than the framework's two queues. */
const CREATE = sql`
  create table lq_test_job (
    job_id        uuid primary key default gen_random_uuid(),
    kind          text not null,
    body          jsonb not null,
    state         text not null default 'WAITING',
    tries         integer not null default 0,
    tries_max     integer not null default 3,
    due_at        timestamptz not null default now(),
    owner         text,
    lease_until   timestamptz,
    token         uuid,
    taken_at      timestamptz,
    error         text,
    reported_at   timestamptz,
    created_at    timestamptz not null default now(),
    changed_at    timestamptz not null default now(),
    ended_at      timestamptz
  )`;
const CREATE_NOTE = sql`create table lq_test_note (consumer text not null, job_id uuid not null, primary key (consumer, job_id))`;

interface JobRow {
  kind: string;
  body: { n: number };
}

const spec = {
  table: 'lq_test_job',
  statuses: { pending: 'WAITING', running: 'BUSY', done: 'OK', dead: 'FAILED' },
  columns: {
    id: 'job_id',
    status: 'state',
    attempts: 'tries',
    maxAttempts: 'tries_max',
    runAt: 'due_at',
    lockedBy: 'owner',
    lockedUntil: 'lease_until',
    claimToken: 'token',
    lastError: 'error',
    updatedAt: 'changed_at',
    finishedAt: 'ended_at',
  },
  returning: ['kind', 'body'],
  claimOrder: ['due_at', 'created_at'],
  partitionColumn: 'kind',
} as const;

describeEachDatabase('leased queue statements', (getDb) => {
  const db = () => getDb().database.db;
  const queue: LeasedQueue<JobRow> = makeLeasedQueue<JobRow>(spec);
  const shared: LeasedQueue<JobRow> = makeLeasedQueue<JobRow>({ ...spec, tokens: 'per-claim' });

  async function insert(n: number, kind = 'a'): Promise<void> {
    await sql`insert into lq_test_job (kind, body) select ${kind}, jsonb_build_object('n', i) from generate_series(1, ${n}) as i`.execute(
      db(),
    );
  }
  async function rows(): Promise<
    Array<{
      job_id: string;
      state: string;
      tries: number;
      token: string | null;
      error: string | null;
      owner: string | null;
      ended_at: Date | null;
      reported_at: Date | null;
    }>
  > {
    return (
      await sql<never>`select job_id, state, tries, token, error, owner, ended_at, reported_at from lq_test_job order by created_at`.execute(
        db(),
      )
    ).rows;
  }

  beforeAll(async () => {
    await CREATE.execute(db());
    await CREATE_NOTE.execute(db());
  });
  beforeEach(async () => {
    await sql`delete from lq_test_job`.execute(db());
    await sql`delete from lq_test_note`.execute(db());
  });

  it('claims due rows in one statement with the mapped columns, a token per row, and counts the attempt', async () => {
    await insert(3);
    await insert(1, 'b');
    const claimed = await queue.claim(db(), { workerId: 'w1', limit: 10, leaseMillis: 60_000, partitions: ['a'] });
    expect(claimed).toHaveLength(3);
    expect(new Set(claimed.map((c) => c.claimToken)).size).toBe(3);
    expect(claimed[0]).toMatchObject({
      attempts: 1,
      maxAttempts: 3,
      lastError: null,
      lockedBy: 'w1',
      leaseExpired: false,
      row: { kind: 'a', body: { n: expect.any(Number) } },
    });
    expect(claimed[0].lockedUntil.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(await queue.claim(db(), { workerId: 'w2', limit: 10, leaseMillis: 60_000, partitions: ['a'] })).toEqual([]);
    const [b] = await shared.claim(db(), { workerId: 'w2', limit: 10, leaseMillis: 60_000 });
    expect(b.row.kind).toBe('b');
    expect((await rows()).every((r) => r.state === 'BUSY' && r.tries === 1)).toBe(true);
  });

  it('sets the claimed-at column, when it names one, to the time of each claim', async () => {
    const stamped = makeLeasedQueue<JobRow>({ ...spec, claimedAtColumn: 'taken_at' });
    await insert(2);
    const takenAt = async () =>
      (
        await sql<{ taken_at: Date | null }>`select taken_at from lq_test_job order by created_at`.execute(db())
      ).rows.map((r) => r.taken_at);
    await queue.claim(db(), { workerId: 'w', limit: 1, leaseMillis: 60_000 });
    expect(await takenAt()).toEqual([null, null]);
    const [claim] = await stamped.claim(db(), { workerId: 'w', limit: 1, leaseMillis: 60_000 });
    const [, second] = await takenAt();
    // The claim's now(): its lease ends exactly the lease after it.
    expect(new Date(second!).getTime()).toBe(claim.lockedUntil.getTime() - 60_000);
  });

  it('gives the rows of one claim one token when tokens are per claim', async () => {
    await insert(3);
    const claimed = await shared.claim(db(), { workerId: 'w', limit: 10, leaseMillis: 60_000 });
    expect(new Set(claimed.map((c) => c.claimToken)).size).toBe(1);
  });

  it('re-claims a row whose lease expired and fences every write of the old claim', async () => {
    await insert(1);
    const [old] = await queue.claim(db(), { workerId: 'a', limit: 1, leaseMillis: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [current] = await queue.claim(db(), { workerId: 'b', limit: 1, leaseMillis: 60_000 });
    expect(old.leaseExpired).toBe(false);
    expect(current).toMatchObject({ id: old.id, attempts: 2, lockedBy: 'b', leaseExpired: true });
    for (const write of [
      () => queue.renew(db(), [old], 1000),
      () => queue.complete(db(), [old]),
      () => queue.retry(db(), [old], 'x', 0),
      () => queue.dead(db(), [old], 'x'),
      () => queue.release(db(), [old]),
    ]) {
      expect(await write()).toEqual(new Set());
    }
    expect(await queue.renew(db(), [current], 1000)).toEqual(new Set([current.id]));
    expect(await queue.complete(db(), [current], { lastError: null })).toEqual(new Set([current.id]));
    expect((await rows())[0]).toMatchObject({ state: 'OK', tries: 2, error: null });
    expect((await rows())[0].ended_at).not.toBeNull();
  });

  it('acknowledges many claims in one statement, each fenced by its own token', async () => {
    await insert(3);
    const [a, b, c] = await queue.claim(db(), { workerId: 'w', limit: 3, leaseMillis: 60_000 });
    const done = await queue.complete(db(), [a, { id: b.id, claimToken: c.claimToken }]);
    expect([...done]).toEqual([a.id]);
  });

  it('changes nothing through a claim whose row is no longer running, though its token still matches', async () => {
    await insert(2);
    const [a, b] = await queue.claim(db(), { workerId: 'w', limit: 2, leaseMillis: 60_000 });
    expect(await queue.complete(db(), [a])).toEqual(new Set([a.id]));
    const endedAt = (await rows()).find((r) => r.job_id === a.id)!.ended_at;
    // The finished row keeps its token; only its status tells it is no longer held.
    expect((await rows()).find((r) => r.job_id === a.id)).toMatchObject({ state: 'OK', token: a.claimToken });
    for (const write of [() => queue.renew(db(), [a, b], 1000), () => queue.complete(db(), [a, b])]) {
      expect(await write()).toEqual(new Set([b.id]));
    }
    expect(await queue.dead(db(), [a], 'x')).toEqual(new Set());
    expect((await rows()).find((r) => r.job_id === a.id)).toMatchObject({
      state: 'OK',
      error: null,
      ended_at: endedAt,
    });
  });

  it('fences a stale claim even when its batch carries the token of the row’s new claim (tokens per claim)', async () => {
    await insert(1);
    const [stale] = await shared.claim(db(), { workerId: 'a', limit: 1, leaseMillis: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await insert(1);
    // The expired row and the new one are claimed together: one token for both.
    const again = await shared.claim(db(), { workerId: 'a', limit: 10, leaseMillis: 60_000 });
    expect(again).toHaveLength(2);
    const renewed = again.find((c) => c.id === stale.id)!;
    const other = again.find((c) => c.id !== stale.id)!;
    expect(renewed.claimToken).toBe(other.claimToken);
    // The old claim of the row, acknowledged beside the other row of the new claim.
    const done = await shared.complete(db(), [stale, other]);
    expect([...done]).toEqual([other.id]);
    expect((await rows()).find((r) => r.job_id === stale.id)).toMatchObject({ state: 'BUSY', tries: 2 });
  });

  it('matches claims whose ids and tokens are written in upper case', async () => {
    await insert(12);
    const claimed = await queue.claim(db(), { workerId: 'w', limit: 12, leaseMillis: 60_000 });
    const upper = claimed.map((c) => ({ id: c.id.toUpperCase(), claimToken: c.claimToken.toUpperCase() }));
    const done = await queue.complete(db(), upper);
    expect(done.size).toBe(12);
  });

  it('retries after a delay, marks DEAD (optionally keeping the lease and setting more columns) and releases without counting', async () => {
    await insert(3);
    const [a, b, c] = await queue.claim(db(), { workerId: 'w', limit: 3, leaseMillis: 60_000 });
    expect(await queue.retry(db(), [a], 'boom', 60_000)).toEqual(new Set([a.id]));
    expect(await queue.dead(db(), [b], 'gone', { keepLeaseMillis: 5000, set: { reported_at: sql`now()` } })).toEqual(
      new Set([b.id]),
    );
    expect(await queue.release(db(), [c])).toEqual(new Set([c.id]));
    const byId = new Map((await rows()).map((r) => [r.job_id, r]));
    expect(byId.get(a.id)).toMatchObject({ state: 'WAITING', tries: 1, token: null, owner: null, error: 'boom' });
    expect(byId.get(b.id)).toMatchObject({ state: 'FAILED', error: 'gone' });
    expect(byId.get(b.id)!.reported_at).not.toBeNull();
    expect(byId.get(c.id)).toMatchObject({ state: 'WAITING', tries: 0, token: null });
    // a is not due for a minute; c is due at once
    expect((await queue.claim(db(), { workerId: 'w', limit: 3, leaseMillis: 60_000 })).map((x) => x.id)).toEqual([
      c.id,
    ]);
  });

  it('purges done rows older than the retention in batches, with their dependents, and keeps newer, DEAD and other rows', async () => {
    await insert(5);
    await insert(1, 'b');
    const claimed = await queue.claim(db(), { workerId: 'w', limit: 6, leaseMillis: 60_000 });
    const [dead, ...rest] = claimed;
    await queue.dead(db(), [dead], 'x');
    await queue.complete(db(), rest);
    const old = rest.filter((c) => c.row.kind === 'a').slice(0, 3);
    await sql`update lq_test_job set ended_at = now() - interval '2 hours' where job_id = any(${old.map((o) => o.id)}::uuid[]) or state = 'FAILED' or kind = 'b'`.execute(
      db(),
    );
    await sql`insert into lq_test_note (consumer, job_id) select c, job_id from lq_test_job, unnest(array['mine', 'theirs']) as c`.execute(
      db(),
    );

    const request = {
      olderThanMillis: 3_600_000,
      partitions: ['a'],
      dependents: [{ table: 'lq_test_note', column: 'job_id', scope: { column: 'consumer', values: ['mine'] } }],
    };
    expect(await queue.purgeFinished(db(), { ...request, limit: 2 })).toBe(2);
    expect(await queue.purgeFinished(db(), { ...request, limit: 2 })).toBe(1);
    expect(await queue.purgeFinished(db(), { ...request, limit: 2 })).toBe(0);
    const left = await rows();
    expect(left.map((r) => r.job_id).sort()).toEqual(
      claimed
        .filter((c) => !old.includes(c))
        .map((c) => c.id)
        .sort(),
    );
    const notes = (
      await sql<{ consumer: string; job_id: string }>`select consumer, job_id from lq_test_note`.execute(db())
    ).rows;
    expect(notes.filter((n) => n.consumer === 'mine')).toHaveLength(3);
    expect(notes.filter((n) => n.consumer === 'theirs')).toHaveLength(6);
    // without partitions the old done row of kind b goes too
    expect(await queue.purgeFinished(db(), { olderThanMillis: 3_600_000, limit: 10 })).toBe(1);
  });

  it('refuses names that are not plain identifiers and statuses that are not plain words', () => {
    expect(() => makeLeasedQueue({ ...spec, table: 'job; drop table x' })).toThrow(TypeError);
    expect(() => makeLeasedQueue({ ...spec, columns: { ...spec.columns, status: 'state"' } })).toThrow(/column status/);
    expect(() => makeLeasedQueue({ ...spec, statuses: { ...spec.statuses, done: "OK'" } })).toThrow(/status done/);
  });
});
