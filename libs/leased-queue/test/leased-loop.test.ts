import { makeLeasedLoop, type BackgroundWork, type Claim, type LeasedLoopLogger } from '../src';

const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

/** Polls until `check` holds: a loaded CI machine runs timers late, so no fixed sleeps before asserting. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

interface Line {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: object;
}

function recordingLogger(): LeasedLoopLogger & { lines: Line[] } {
  const lines: Line[] = [];
  return {
    lines,
    info: (fields, message) => lines.push({ level: 'info', fields, message }),
    warn: (fields, message) => lines.push({ level: 'warn', fields, message }),
    error: (fields, message) => lines.push({ level: 'error', fields, message }),
  };
}

const connectionLost = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('makeLeasedLoop', () => {
  it('says a lost database once and once when it is back; other turn failures are logged each time', async () => {
    const logger = recordingLogger();
    const failures: unknown[] = [];
    let turns = 0;
    const loop = makeLeasedLoop<Claim>({
      subject: 'test runner',
      workerId: 'w1',
      logger,
      pollIntervalMillis: 1,
      async turn() {
        turns++;
        if (turns <= 3) throw connectionLost();
        if (turns === 4) {
          loop.outage.succeeded();
          throw new Error('syntax error at or near "selec"');
        }
        loop.outage.succeeded();
        return false;
      },
      turnFailed: { message: 'claiming failed', notify: (err) => failures.push(err) },
    });
    loop.start();
    await until(() => turns >= 5, 'five turns');
    await loop.stop({ timeoutMillis: 1_000 });

    expect(failures).toHaveLength(4); // every failed turn is notified
    const messages = logger.lines.map((l) => `${l.level}: ${l.message}`);
    expect(messages.filter((m) => m.includes('lost its database'))).toEqual([
      'warn: test runner lost its database: claims, heartbeats and sweeps retry quietly until it answers again',
    ]);
    expect(messages.filter((m) => m.includes('has its database back'))).toHaveLength(1);
    expect(messages.filter((m) => m === 'error: claiming failed')).toHaveLength(1); // the failure on a working connection
  });

  it('stops in order: the loop, the wake source, then the background work up to the timeout, and gives back the rest', async () => {
    const order: string[] = [];
    let finishQuick: (() => void) | undefined;
    const running = new Map<string, Promise<void>>();
    running.set(
      'quick',
      new Promise<void>((resolve) => {
        finishQuick = resolve;
      }).then(() => void running.delete('quick')),
    );
    running.set('stuck', new Promise<void>(() => undefined));
    const work: BackgroundWork = {
      get size() {
        return running.size;
      },
      settled: () => {
        order.push('drain');
        setTimeout(() => finishQuick?.(), 5);
        return Promise.all(running.values());
      },
      abandon: async () => {
        order.push('abandon');
        const unfinished = running.size;
        running.clear();
        return { unfinished, released: unfinished };
      },
    };
    const loop = makeLeasedLoop<Claim>({
      subject: 'test runner',
      workerId: 'w1',
      logger: recordingLogger(),
      pollIntervalMillis: 60_000,
      turn: async () => {
        order.push('turn');
        return false;
      },
      turnFailed: { message: 'claiming failed' },
      wakeSource: {
        subscribe: async () => async () => {
          order.push('unsubscribe');
        },
      },
      backgroundWork: work,
    });
    loop.start();
    await until(() => order.includes('turn'), 'the first turn');
    await sleep(10); // the wake source has subscribed
    const stopped = await loop.stop({ timeoutMillis: 100 });

    expect(order).toEqual(['turn', 'unsubscribe', 'drain', 'abandon']);
    expect(stopped).toEqual({ finished: 1, released: 1 });
    expect(loop.stopping).toBe(true);
  });

  it('keeps held claims renewed and reports a claim the renewal found gone', async () => {
    const renewed: string[][] = [];
    const lost: string[] = [];
    const loop = makeLeasedLoop<Claim>({
      subject: 'test runner',
      workerId: 'w1',
      logger: recordingLogger(),
      pollIntervalMillis: 60_000,
      turn: async () => false,
      turnFailed: { message: 'claiming failed' },
      heartbeat: {
        intervalMillis: 5,
        renew: async (claims) => {
          renewed.push(claims.map((c) => c.id));
          return new Set(claims.filter((c) => c.id !== 'b').map((c) => c.id));
        },
        onLost: (claim) => lost.push(claim.id),
        failureMessage: 'heartbeat failed',
      },
    });
    loop.hold([
      { id: 'a', claimToken: 't1' },
      { id: 'b', claimToken: 't2' },
    ]);
    await until(() => lost.length === 1, 'the lost claim');
    expect(lost).toEqual(['b']);
    expect(renewed[0]).toEqual(['a', 'b']);
    await loop.release([{ id: 'a', claimToken: 't1' }]);
    const beats = renewed.length;
    await sleep(30);
    expect(renewed.length).toBe(beats); // nothing held: no more beats
    await loop.stop({ timeoutMillis: 100 });
  });
});
