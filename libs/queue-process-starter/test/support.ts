/** Helpers of the queue tests: the real broker, unique queue names, fake transactions, a recording sink, broker-side closes and a cuttable relay. */
import { createLogger, type Logger } from '@fw/core';
import type { WorkerDto, WorkerStartContext, WorkerType } from '@fw/process-api';
import type { ProcessEventSink } from '@fw/process-utils';
import { connect, type Channel, type ChannelModel, type GetMessage } from 'amqplib';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { openTcpRelay } from '@fw/test-support';
import { queueDeclaration } from '../src';

/** The broker of the tests (CI runs RabbitMQ on 127.0.0.1:5672). */
export const BROKER_URL = process.env.FW_TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

/** Opens a connection, or fails the suite with a message that says what is missing. */
export async function connectBroker(): Promise<ChannelModel> {
  try {
    return await connect(BROKER_URL);
  } catch (err) {
    throw new Error(
      `RabbitMQ is not reachable at ${BROKER_URL.replace(/:[^:@/]*@/, ':***@')} (${(err as Error).message || String(err)}). ` +
        'The queue-process-starter tests need a real broker: start rabbitmq-server (CI runs one) or set FW_TEST_AMQP_URL.',
      { cause: err },
    );
  }
}

/** Test queues: unique per run, declared as the package does, deleted by `cleanup()`. */
export interface TestQueues {
  name(label: string): string;
  channel(): Channel;
  declare(queue: string): Promise<void>;
  depth(queue: string): Promise<number>;
  get(queue: string): Promise<GetMessage | false>;
  publishRaw(queue: string, body: string, headers?: Record<string, string>): Promise<void>;
  cleanup(): Promise<void>;
}

export async function openTestQueues(): Promise<TestQueues> {
  const connection = await connectBroker();
  const channel = await connection.createConfirmChannel();
  const run = randomUUID().slice(0, 8);
  const names = new Set<string>();
  return {
    name(label) {
      const queue = `fw-test.${run}.${label}`;
      names.add(queue);
      return queue;
    },
    channel: () => channel,
    async declare(queue) {
      names.add(queue);
      await channel.assertQueue(queue, queueDeclaration('quorum'));
    },
    async depth(queue) {
      return (await channel.checkQueue(queue)).messageCount;
    },
    get: (queue) => channel.get(queue, { noAck: true }),
    publishRaw(queue, body, headers = {}) {
      return new Promise<void>((resolve, reject) => {
        channel.publish(
          '',
          queue,
          Buffer.from(body, 'utf8'),
          { persistent: true, headers, messageId: randomUUID() },
          (err: unknown) => (err ? reject(err) : resolve()),
        );
      });
    },
    async cleanup() {
      for (const queue of names) await channel.deleteQueue(queue).catch(() => undefined);
      await connection.close().catch(() => undefined);
    },
  };
}

export function workerDto(overrides: Partial<WorkerDto> = {}): WorkerDto {
  return {
    processId: randomUUID(),
    processType: 'import',
    workerType: 'EXECUTOR' as WorkerType,
    tenant: 't1',
    triggerId: null,
    parentId: null,
    input: { n: 1 },
    config: { queue: 'unused' },
    ...overrides,
  };
}

/** A transaction context whose after-commit callbacks run when `commit()` is called. */
export function transaction(): WorkerStartContext & { commit(): Promise<void> } {
  const callbacks: Array<() => void | Promise<void>> = [];
  return {
    transaction: {},
    afterCommit: (cb) => void callbacks.push(cb),
    async commit() {
      for (const cb of callbacks) await cb();
    },
  };
}

export interface DeliveredEvent {
  processId: string;
  eventId: string;
  payload: unknown;
  tenant: string | null;
}

/** A sink that records events; `fail` makes the next deliveries throw the given error. */
export function recordingSink(): ProcessEventSink & {
  events: DeliveredEvent[];
  failNext(error: unknown, times: number): void;
} {
  const events: DeliveredEvent[] = [];
  let failure: { error: unknown; times: number } | undefined;
  return {
    events,
    failNext(error, times) {
      failure = { error, times };
    },
    async deliver(processId, eventId, payload, tenant) {
      if (failure !== undefined && failure.times > 0) {
        failure.times -= 1;
        throw failure.error;
      }
      events.push({ processId, eventId, payload, tenant });
    },
  };
}

/** Polls `check` until it is true (or fails after `timeoutMillis`). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMillis = 15_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A promise to resolve by hand. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A connection name no other test (or engineer) uses, to find the connection on the broker. */
export function uniqueConnectionName(label: string): string {
  return `fw-test ${label} ${randomUUID()}`;
}

const run = promisify(execFile);

async function rabbitmqctl(args: readonly string[]): Promise<string> {
  try {
    return (await run('rabbitmqctl', [...args], { timeout: 60_000 })).stdout;
  } catch (err) {
    throw new Error(
      `rabbitmqctl ${args.join(' ')} failed (${(err as Error).message}). These tests close connections from the broker's side with ` +
        'rabbitmqctl: run them where rabbitmqctl reaches the broker (the RabbitMQ host, as a user with its Erlang cookie).',
      { cause: err },
    );
  }
}

/**
 * Closes, from the broker's side (`rabbitmqctl close_connection`, as an operator or a broker
 * shutdown would), every connection with client property `connection_name` = `name`; waits until
 * there is at least one. Returns how many were closed.
 */
export async function closeConnectionsNamed(name: string, timeoutMillis = 30_000): Promise<number> {
  let pids: string[] = [];
  await waitFor(
    async () => {
      // one line per connection: "<pid>\t[{"connection_name","…"},{"product","amqplib"},…]"
      const listing = await rabbitmqctl([
        'list_connections',
        'pid',
        'client_properties',
        '--quiet',
        '--no-table-headers',
      ]);
      pids = listing
        .split('\n')
        .filter((line) => line.includes(`{"connection_name","${name}"}`))
        .map((line) => line.split('\t')[0] ?? '');
      return pids.length > 0;
    },
    timeoutMillis,
    `a connection named '${name}' on the broker`,
  );
  for (const pid of pids) await rabbitmqctl(['close_connection', pid, 'closed by a queue-process-starter test']);
  return pids.length;
}

/**
 * A TCP relay between the package and the broker that a test can cut, like a network drop: `cut()`
 * severs the open connections and refuses new ones until `restore()`.
 */
export interface BrokerRelay {
  /** BROKER_URL with the relay's port. */
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function openBrokerRelay(): Promise<BrokerRelay> {
  const broker = new URL(BROKER_URL);
  const relay = await openTcpRelay(broker.hostname, Number(broker.port || 5672));
  const relayed = new URL(BROKER_URL);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(relay.port);
  return {
    url: relayed.toString(),
    cut: () => relay.cut(),
    restore: () => relay.restore(),
    close: () => relay.close(),
  };
}

export function capturingLogger(lines: Array<Record<string, unknown>>): Logger {
  return createLogger({
    name: 'queue-process-starter-test',
    level: 'warn',
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
}
