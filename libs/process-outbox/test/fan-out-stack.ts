/**
 * The full durable stack of the integration tests: the process manager with the outbox, the JDBC
 * work-item starter and runner, and a batch service with a splitter (root → N leaves), a leaf
 * executor and an aggregator; a successor definition chains after the root.
 */
import type { Database } from '@fw/core';
import type { ProcessDef } from '@fw/process-api';
import {
  makeJsonProcessConfigurator,
  makeProcessManager,
  processDb,
  type ProcessManager,
  type ProcessOutboxSettings,
} from '@fw/process-service';
import {
  AggregatorBase,
  ExecutorBase,
  makeBatchService,
  makeManagerEventSink,
  SplitterBase,
  type ChildResult,
  type ChildSpec,
} from '@fw/process-utils';
import {
  makeSinkFailureReporter,
  makeWorkItemRunner,
  makeWorkItemStarter,
  type WorkItemRunner,
} from '@fw/jdbc-process-starter';

export const FAN_OUT_DEFINITIONS: ProcessDef[] = [
  { processType: 'fan', leaf: false },
  { processType: 'leaf', leaf: true, parentProcessType: 'fan' },
  { processType: 'after-fan', leaf: true, predecessorProcessType: 'fan', predecessorArgs: 'OUTPUT' },
];

class Fan extends SplitterBase<{ leaves: number }, { i: number }> {
  readonly processType = 'fan';
  override readonly batchSize = 100;
  split(input: { leaves: number }): ChildSpec<{ i: number }>[] {
    return Array.from({ length: input.leaves }, (_, i) => ({ processType: 'leaf', args: { i } }));
  }
}

class Leaf extends ExecutorBase<{ i: number }, number> {
  readonly processType = 'leaf';
  constructor(private readonly delayMillis: number) {
    super();
  }
  async execute(input: { i: number }): Promise<number> {
    if (this.delayMillis > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMillis));
    return input.i;
  }
}

class Sum extends AggregatorBase<unknown, number, { sum: number; children: number }> {
  readonly processType = 'fan';
  aggregate(_input: unknown, children: ChildResult<number>[]): { sum: number; children: number } {
    return { sum: children.reduce((s, c) => s + (c.output ?? 0), 0), children: children.length };
  }
}

class After extends ExecutorBase<unknown, string> {
  readonly processType = 'after-fan';
  execute(): string {
    return 'after';
  }
}

export interface FanOutStack {
  manager: ProcessManager;
  runner: WorkItemRunner;
  stop(): Promise<void>;
}

export interface FanOutStackOptions {
  outbox?: ProcessOutboxSettings;
  leafDelayMillis?: number;
  runnerId?: string;
  leaseSeconds?: number;
}

/** Starts manager (with outbox dispatcher), runner and workers on `database`. */
export function startFanOutStack(database: Database, options: FanOutStackOptions = {}): FanOutStack {
  const starter = makeWorkItemStarter();
  const manager = makeProcessManager({
    db: processDb(database),
    configurator: makeJsonProcessConfigurator({ definitions: FAN_OUT_DEFINITIONS }),
    workerStarter: starter,
    outbox: { enabled: true, pollIntervalMillis: 50, lockSeconds: 2, backoff: () => 20, ...options.outbox },
  });
  const sink = makeManagerEventSink(manager);
  const runner = makeWorkItemRunner({
    database,
    workerId: options.runnerId,
    batchService: makeBatchService({
      workers: [new Fan(), new Leaf(options.leafDelayMillis ?? 0), new Sum(), new After()],
      sink,
    }),
    onDead: makeSinkFailureReporter(sink),
    concurrency: 8,
    pollIntervalMillis: 50,
    leaseSeconds: options.leaseSeconds ?? 2,
    backoff: { baseMillis: 20 },
  });
  starter.onEnqueued(() => runner.wake());
  runner.start();
  return {
    manager,
    runner,
    async stop() {
      await runner.stop({ timeoutMillis: 2000 });
      await manager.close();
    },
  };
}
