/**
 * Executes the commands of one claim: grouped by type and group key, `concurrency` groups at a
 * time, each group in one transaction that acknowledges its commands first (fenced by the claim
 * token), writes their receipts and runs the handler. A failing group is retried one by one; a
 * handler with `deliver` delivers each command first, outside any transaction. Commands whose
 * lease expired on their last attempt are marked DEAD instead of run.
 */
import { extractTraceContext, inMessagingSpan, parseTraceContext, type MessagingSpanOptions } from '@fw/telemetry';
import type { Claim } from '@fw/leased-queue';
import type { OutboxCommand, OutboxRepository } from '../repository/outbox-repository';
import { outboxDb } from '../schema/outbox-tables';
import type { OutboxCommandHandler } from './command-handler';
import type { OutboxDispatcherStats } from './outbox-dispatcher-types';
import type { OutboxEvents } from './outbox-events';
import type { OutboxSettlement } from './outbox-settlement';
import { FwError } from '@fw/core';

/** The heartbeat, as the groups use it: claimed commands are held until their group starts. */
export interface HeldCommandLeases {
  hold(commands: Iterable<OutboxCommand>): void;
  release(commands: Iterable<Claim>): Promise<void>;
}

export interface CommandGroupRunnerDeps<DB> {
  handlers: Readonly<Record<string, OutboxCommandHandler<DB>>>;
  /** Receipt consumer of handlers without their own. */
  consumer: string;
  concurrency: number;
  workerId: string;
  repo: Pick<OutboxRepository, 'complete' | 'receive'>;
  settlement: OutboxSettlement<DB>;
  leases: HeldCommandLeases;
  counters: Pick<OutboxDispatcherStats, 'done' | 'duplicates'>;
  commandEvent: OutboxEvents['commandEvent'];
}

export interface CommandGroupRunner {
  /** Executes the commands of one claim; resolves when every group has ended. */
  execute(commands: readonly OutboxCommand[]): Promise<void>;
}

/** The acknowledgement changed fewer rows than claimed: the lease was lost (never leaves the dispatcher). */
class StaleClaimError extends FwError {
  constructor() {
    super({
      code: 409,
      subErrorCode: 'OUTBOX_STALE_CLAIM',
      description: 'the outbox lease was lost before the acknowledgement',
      expose: false,
    });
  }
}

/** The commands of a claim by type and group key (each its own group when its handler is not `grouped`). */
export function groupsOf<DB>(
  commands: readonly OutboxCommand[],
  handlers: Readonly<Record<string, OutboxCommandHandler<DB>>>,
): OutboxCommand[][] {
  const groups = new Map<string, OutboxCommand[]>();
  for (const c of commands) {
    const grouped = handlers[c.commandType]?.grouped ?? true;
    const key = `${c.commandType}\u0000${grouped ? (c.groupKey ?? '') : c.id}`;
    const list = groups.get(key) ?? [];
    list.push(c);
    groups.set(key, list);
  }
  return [...groups.values()];
}

/**
 * The handler's `deliver` for each command, outside any transaction, leases still kept alive by
 * the heartbeat; a command whose delivery failed goes to retry (or DEAD) on its own. Returns the
 * delivered ones, in order.
 */
export async function deliverEach<DB>(
  deliver: NonNullable<OutboxCommandHandler<DB>['deliver']>,
  commands: readonly OutboxCommand[],
  deps: Pick<CommandGroupRunnerDeps<DB>, 'workerId' | 'leases' | 'settlement'>,
): Promise<OutboxCommand[]> {
  const outcomes = await Promise.allSettled(commands.map((c) => deliver(c, { workerId: deps.workerId })));
  const delivered: OutboxCommand[] = [];
  const failures: Array<{ command: OutboxCommand; reason: unknown }> = [];
  outcomes.forEach((outcome, i) =>
    outcome.status === 'fulfilled'
      ? delivered.push(commands[i])
      : failures.push({ command: commands[i], reason: outcome.reason }),
  );
  if (failures.length > 0) {
    await deps.leases.release(failures.map((f) => f.command));
    for (const f of failures) await deps.settlement.failed(f.command, f.reason);
  }
  return delivered;
}

/**
 * The `process` span of executing a group: a child of the first command's stored trace context
 * (the commands of a group share their process, so their contexts rarely differ).
 */
function processSpanOptions(commands: readonly OutboxCommand[]): MessagingSpanOptions {
  const first = commands[0];
  return {
    destination: 'fw_process_outbox',
    parent: extractTraceContext(parseTraceContext(first.traceContext)),
    tenant: first.tenant,
    processId: first.processId ?? undefined,
  };
}

export function makeCommandGroupRunner<DB>(deps: CommandGroupRunnerDeps<DB>): CommandGroupRunner {
  const { handlers, settlement, leases, counters, commandEvent } = deps;

  /** Acknowledges, receives and executes `commands` in one transaction; resolves the ids received afresh. */
  async function executeGroup(handler: OutboxCommandHandler<DB>, commands: readonly OutboxCommand[]) {
    let fresh = new Set<string>();
    await handler.prepare?.();
    await settlement.inTransaction(async (ctx) => {
      const odb = outboxDb(ctx.trx);
      const ids = commands.map((c) => c.id);
      if ((await deps.repo.complete(odb, ids, commands[0].claimToken)) !== ids.length) throw new StaleClaimError();
      fresh = await deps.repo.receive(odb, handler.consumer ?? deps.consumer, ids);
      const todo = commands.filter((c) => fresh.has(c.id));
      if (todo.length > 0) await inMessagingSpan('process', processSpanOptions(todo), () => handler.execute(todo, ctx));
    });
    return fresh;
  }

  /**
   * Executes commands of one type (and group) in one transaction; a failing group is retried one
   * by one. A handler with `deliver` delivers first (once: the one-by-one retry does not deliver again).
   */
  async function runGroup(claimed: readonly OutboxCommand[], deliveredAlready = false): Promise<void> {
    const handler = handlers[claimed[0].commandType];
    const commands =
      handler?.deliver !== undefined && !deliveredAlready
        ? await deliverEach(handler.deliver.bind(handler), claimed, deps)
        : claimed;
    if (commands.length === 0) return;
    const first = commands[0];
    let fresh: Set<string>;
    // The group starts: no more renewals (and none still in flight) once its transaction may lock the rows.
    await leases.release(commands);
    try {
      if (handler === undefined) throw new Error(`no outbox handler for command type '${first.commandType}'`);
      fresh = await executeGroup(handler, commands);
    } catch (err) {
      if (commands.length > 1) {
        // Retried one by one: the later ones wait again, under the heartbeat.
        leases.hold(commands);
        for (const c of commands) await runGroup([c], true);
        return;
      }
      if (err instanceof StaleClaimError) return settlement.staleAck(first);
      return settlement.failed(first, err);
    }
    for (const c of commands) {
      if (fresh.has(c.id)) {
        counters.done++;
        commandEvent('done', c);
      } else {
        counters.duplicates++;
        commandEvent('duplicate', c);
      }
    }
  }

  async function execute(commands: readonly OutboxCommand[]): Promise<void> {
    const expired = commands.filter((c) => c.attempts > c.maxAttempts);
    for (const c of expired) {
      await leases.release([c]);
      const earlier = c.lastError === null ? '' : ` (earlier error: ${c.lastError})`;
      await settlement.markDead(
        c,
        `the lease expired on the last of ${c.maxAttempts} attempt(s): the dispatcher holding it stopped${earlier}`,
      );
    }
    const queue = groupsOf(
      commands.filter((c) => c.attempts <= c.maxAttempts),
      handlers,
    );
    const lanes = Array.from({ length: Math.min(deps.concurrency, queue.length) }, async () => {
      for (let group = queue.shift(); group !== undefined; group = queue.shift()) await runGroup(group);
    });
    await Promise.all(lanes);
  }

  return { execute };
}
