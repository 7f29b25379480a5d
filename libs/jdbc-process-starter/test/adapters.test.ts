import {
  batchServiceHandler,
  exponentialBackoff,
  makeSinkFailureReporter,
  WorkItemAttemptError,
  type DeadWorkItem,
  type WorkItemContext,
} from '../src';
import { workerDto } from './support';

const ctx: WorkItemContext = {
  itemId: 'i',
  attempt: 1,
  maxAttempts: 3,
  workerId: 'w',
  signal: new AbortController().signal,
};

describe('batchServiceHandler', () => {
  const handlerFor = (outcome: { status: string; error?: unknown; failure?: { message: string } }) =>
    batchServiceHandler({ run: async () => outcome });

  it('completes on succeeded and stale outcomes', async () => {
    await expect(handlerFor({ status: 'succeeded' })(workerDto(), ctx)).resolves.toBeUndefined();
    await expect(handlerFor({ status: 'stale', error: { code: 422 } })(workerDto(), ctx)).resolves.toBeUndefined();
  });

  it('turns a failure the batch service reported into a reported failure', async () => {
    await expect(
      handlerFor({ status: 'failed', failure: { message: 'input.n: expected integer' } })(workerDto(), ctx),
    ).resolves.toEqual({ reportedFailure: 'input.n: expected integer' });
  });

  it('fails the attempt when nothing could be delivered or no worker is registered here', async () => {
    await expect(
      handlerFor({ status: 'undeliverable', error: new Error('ECONNREFUSED') })(workerDto(), ctx),
    ).rejects.toThrow(/undeliverable.*ECONNREFUSED/);
    const ignored = handlerFor({ status: 'ignored' })(
      workerDto({ workerType: 'AGGREGATOR', processType: 'books' }),
      ctx,
    );
    await expect(ignored).rejects.toBeInstanceOf(WorkItemAttemptError);
    await expect(ignored).rejects.toThrow("no AGGREGATOR worker is registered for process type 'books'");
  });

  it('hands the WorkerDto itself to the batch service', async () => {
    const seen: unknown[] = [];
    const worker = workerDto();
    await batchServiceHandler({
      run: async (m) => {
        seen.push(m);
        return { status: 'succeeded' };
      },
    })(worker, ctx);
    expect(seen).toEqual([worker]);
  });
});

describe('makeSinkFailureReporter', () => {
  const dead = (workerType: string): DeadWorkItem => ({
    id: 'item-1',
    processId: 'p-1',
    processType: 'import',
    workerType,
    tenant: 't1',
    attempts: 5,
    error: 'boom',
    stackTrace: 'Error: boom\n    at x',
  });

  it('raises the error event of the worker type with the failure as payload', async () => {
    const delivered: unknown[][] = [];
    const report = makeSinkFailureReporter({
      deliver: async (...args) => {
        delivered.push(args);
      },
    });
    await report(dead('SPLITTER'));
    await report(dead('EXECUTOR'));
    await report(dead('AGGREGATOR'));
    expect(delivered.map((d) => d[1])).toEqual(['splitDoneWithErrors', 'doneWithErrors', 'aggregationDoneWithErrors']);
    expect(delivered[1]).toEqual([
      'p-1',
      'doneWithErrors',
      {
        errors: ['EXECUTOR work item item-1 is DEAD after 5 attempt(s): boom'],
        exceptionMessage: 'boom',
        stackTrace: 'Error: boom\n    at x',
      },
      't1',
    ]);
  });

  it('counts a 422 (step already over) as reported and rethrows other errors', async () => {
    await expect(
      makeSinkFailureReporter({
        deliver: async () => {
          throw Object.assign(new Error('not allowed'), { code: 422 });
        },
      })(dead('EXECUTOR')),
    ).resolves.toBeUndefined();
    await expect(
      makeSinkFailureReporter({
        deliver: async () => {
          throw Object.assign(new Error('down'), { code: 503 });
        },
      })(dead('EXECUTOR')),
    ).rejects.toThrow('down');
    await expect(makeSinkFailureReporter({ deliver: async () => undefined })(dead('OTHER'))).rejects.toThrow(
      /unknown worker type/,
    );
  });
});

describe('exponentialBackoff', () => {
  it('doubles from the base and stops at the cap', () => {
    const delay = exponentialBackoff({ baseMillis: 100, maxMillis: 1000 });
    expect([1, 2, 3, 4, 5, 60].map(delay)).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(exponentialBackoff()(1)).toBe(1000);
  });
});
