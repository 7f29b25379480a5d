import type { Process, ProcessDef } from '@fw/process-api';
import { makeJsonProcessConfigurator } from '@fw/process-service';
import { ExecutorBase, NonRetryableError } from '@fw/process-utils';
import { describeEachDatabase } from '@fw/test-support';
import { sql } from 'kysely';
import { makeJdbcWorkerHost, type JdbcWorkerHost } from '../src';

/* The retry policy of a definition for errors thrown by author code, through the durable worker host. */

const calls = new Map<string, number>();
const callsOf = (processType: string) => calls.get(processType) ?? 0;
const count = (processType: string) => calls.set(processType, callsOf(processType) + 1);

class Flaky extends ExecutorBase<{ n: number }, { n: number }> {
  readonly processType = 'flaky';
  execute(input: { n: number }): { n: number } {
    count(this.processType);
    if (callsOf(this.processType) < 3) throw new Error(`flaky failure ${callsOf(this.processType)}`);
    return input;
  }
}

class Broken extends ExecutorBase<unknown, never> {
  readonly processType = 'broken';
  execute(): never {
    count(this.processType);
    throw new Error(`broken on call ${callsOf(this.processType)}`);
  }
}

class Refusing extends ExecutorBase<unknown, never> {
  readonly processType = 'refusing';
  execute(): never {
    count(this.processType);
    throw new NonRetryableError('customer 42 does not exist');
  }
}

const BACKOFF = { baseMillis: 200, maxMillis: 200 };
const DEFINITIONS: ProcessDef[] = [
  { processType: 'flaky', leaf: true, retry: { attempts: 3, backoff: BACKOFF } },
  { processType: 'broken', leaf: true, retry: { attempts: 3, backoff: BACKOFF } },
  { processType: 'refusing', leaf: true, retry: { attempts: 5, backoff: BACKOFF } },
];

describeEachDatabase('retry policy of a definition (durable worker host)', (getDb) => {
  let host: JdbcWorkerHost;
  beforeAll(() => {
    host = makeJdbcWorkerHost({
      database: getDb().database,
      closeDatabase: false,
      configurator: makeJsonProcessConfigurator({ definitions: DEFINITIONS }),
      workers: [new Flaky(), new Broken(), new Refusing()],
      runner: { pollIntervalMillis: 50 },
      outbox: { pollIntervalMillis: 50 },
    });
    host.start();
  });
  afterAll(async () => {
    await host.stop({ drainMillis: 2_000 });
  });

  async function finished(
    processType: string,
  ): Promise<{ process: Process; millis: number; attempts: number; maxAttempts: number }> {
    const started = Date.now();
    const { mutatedEntity } = await host.manager.createProcess(
      { processDefName: processType, args: { n: 7 } },
      { tenant: 't1' },
    );
    for (;;) {
      const process = (await host.manager.getProcess(mutatedEntity.id, { tenant: 't1' })).mutatedEntity;
      if (process.state.stateId === 'PROCESSED' || process.state.stateId === 'PROCESSED_WITH_ERRORS') {
        const item = await sql<{
          attempts: number;
          max_attempts: number;
        }>`select attempts, max_attempts from fw_process_work_item where process_id = ${process.id}`.execute(
          getDb().database.db,
        );
        return {
          process,
          millis: Date.now() - started,
          attempts: Number(item.rows[0].attempts),
          maxAttempts: Number(item.rows[0].max_attempts),
        };
      }
      if (Date.now() - started > 30_000) throw new Error(`${processType} did not finish (${process.state.stateId})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("retries a flaky step with the definition's backoff until it succeeds on the third attempt", async () => {
    calls.clear();
    const { process, millis, attempts, maxAttempts } = await finished('flaky');
    expect(process.state.stateId).toBe('PROCESSED');
    expect(process.output).toEqual({ n: 7 });
    expect(process.errors).toEqual([]);
    expect(callsOf('flaky')).toBe(3);
    expect({ attempts, maxAttempts }).toEqual({ attempts: 3, maxAttempts: 3 });
    expect(millis).toBeGreaterThanOrEqual(2 * BACKOFF.baseMillis);
  });

  it('reports the last failure after the last attempt, naming the attempts and the previous error', async () => {
    calls.clear();
    const { process, attempts } = await finished('broken');
    expect(process.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(callsOf('broken')).toBe(3);
    expect(attempts).toBe(3);
    expect(process.errors).toHaveLength(1);
    expect(process.errors[0].errors).toEqual([
      'INVOCATION_FAILURE: broken on call 3 (attempt 3 of 3; the previous attempt failed with: broken on call 2)',
    ]);
    expect(process.errors[0].stackTrace).toContain('broken on call 3');
  });

  it('fails at once on a NonRetryableError', async () => {
    calls.clear();
    const { process, attempts } = await finished('refusing');
    expect(process.state.stateId).toBe('PROCESSED_WITH_ERRORS');
    expect(callsOf('refusing')).toBe(1);
    expect(attempts).toBe(1);
    expect(process.errors[0].errors).toEqual(['INVOCATION_FAILURE: customer 42 does not exist (not retryable)']);
    expect(process.errors[0].exceptionMessage).toBe('NonRetryableError: customer 42 does not exist');
  });
});
