import { makeInVmProcessStarter, type WorkerDispatcher } from '@fw/invm-process-starter';
import type { WorkerDto, WorkerStartContext } from '@fw/process-api';

function worker(n: number): WorkerDto {
  return {
    processId: `p${n}`,
    processType: 't',
    workerType: 'EXECUTOR',
    tenant: null,
    triggerId: null,
    parentId: null,
    input: { n },
    config: {},
  };
}

/** A transaction context whose after-commit callbacks run when `commit()` is called. */
function transaction(): WorkerStartContext & { commit(): Promise<void> } {
  const callbacks: Array<() => void | Promise<void>> = [];
  return {
    transaction: {},
    afterCommit: (cb) => void callbacks.push(cb),
    async commit() {
      for (const cb of callbacks) await cb();
    },
  };
}

/** Starts and commits one launch. */
async function launch(starter: ReturnType<typeof makeInVmProcessStarter>, w: WorkerDto): Promise<void> {
  const trx = transaction();
  await starter.startWorker(w, trx);
  await trx.commit();
}

function stackDepth(): number {
  return (new Error().stack ?? '').split('\n').length;
}

describe('in-VM process starter', () => {
  const limit = Error.stackTraceLimit;
  beforeAll(() => {
    Error.stackTraceLimit = Infinity;
  });
  afterAll(() => {
    Error.stackTraceLimit = limit;
  });

  it('dispatches only after commit, never for a rolled-back transaction, and never synchronously', async () => {
    const ran: string[] = [];
    const starter = makeInVmProcessStarter({ dispatcher: { run: async (w) => void ran.push(w.processId) } });
    const rolledBack = transaction();
    await starter.startWorker(worker(1), rolledBack);
    const committed = transaction();
    await starter.startWorker(worker(2), committed);
    expect(ran).toEqual([]);
    await committed.commit();
    expect(ran).toEqual([]);
    await starter.idle();
    expect(ran).toEqual(['p2']);
    expect(starter.stats()).toMatchObject({ enqueued: 1, dispatched: 1, queued: 0, inFlight: 0 });
  });

  it('hands each worker a copy of the message by default', async () => {
    const received: WorkerDto[] = [];
    const starter = makeInVmProcessStarter({ dispatcher: { run: async (w) => void received.push(w) } });
    const original = worker(3);
    await launch(starter, original);
    await starter.idle();
    expect(received[0]).toEqual(original);
    expect(received[0]).not.toBe(original);
    expect(received[0]?.config).not.toBe(original.config);
  });

  it('never runs more than `concurrency` workers at once, in FIFO order', async () => {
    let running = 0;
    let peak = 0;
    const order: string[] = [];
    const dispatcher: WorkerDispatcher = {
      async run(w) {
        order.push(w.processId);
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 2));
        running -= 1;
      },
    };
    const starter = makeInVmProcessStarter({ dispatcher, concurrency: 3 });
    for (let i = 0; i < 20; i += 1) await launch(starter, worker(i));
    await starter.idle();
    expect(peak).toBe(3);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => `p${i}`));
  });

  it('keeps the stack flat for long chains and big fan-outs, and idle() waits for work queued by workers', async () => {
    const depths: number[] = [];
    let ran = 0;
    const starter = makeInVmProcessStarter({
      concurrency: 2,
      dispatcher: {
        async run(w) {
          ran += 1;
          depths.push(stackDepth());
          const n = (w.input as { n: number }).n;
          // worker 0 fans out to 5,000 children; each child below 5,000 chains one more
          if (n === 0) for (let i = 1; i <= 5000; i += 1) await launch(starter, worker(i));
          else if (n <= 5000) await launch(starter, worker(n + 5000));
        },
      },
    });
    await launch(starter, worker(0));
    await starter.idle();
    expect(ran).toBe(10001);
    expect(Math.max(...depths)).toBe(Math.min(...depths));
    expect(starter.stats()).toMatchObject({ enqueued: 10001, dispatched: 10001, queued: 0, inFlight: 0 });
    expect(starter.stats().maxQueued).toBeGreaterThan(4000);
  });

  it('queues until a dispatcher is bound, counts and reports failures, and keeps going', async () => {
    const errors: unknown[] = [];
    const starter = makeInVmProcessStarter({ onError: (e) => void errors.push(e) });
    await launch(starter, worker(1));
    await launch(starter, worker(2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(starter.stats()).toMatchObject({ queued: 2, dispatched: 0 });
    const ran: string[] = [];
    starter.bind({
      async run(w) {
        if (w.processId === 'p1') throw new Error('worker crashed');
        ran.push(w.processId);
      },
    });
    await starter.idle();
    expect(ran).toEqual(['p2']);
    expect(errors).toEqual([new Error('worker crashed')]);
    expect(starter.stats()).toMatchObject({ failed: 1, dispatched: 2 });
  });

  it('close() waits for running work and drops later launches', async () => {
    const ran: string[] = [];
    const starter = makeInVmProcessStarter({ dispatcher: { run: async (w) => void ran.push(w.processId) } });
    await launch(starter, worker(1));
    await starter.close();
    expect(ran).toEqual(['p1']);
    await launch(starter, worker(2));
    await starter.idle();
    expect(ran).toEqual(['p1']);
    expect(starter.stats().dropped).toBe(1);
  });
});
