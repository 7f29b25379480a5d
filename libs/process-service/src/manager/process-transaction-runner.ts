/**
 * The transaction every manager call runs in. Definitions are read before it opens, so a
 * database-backed source never needs a second connection while this one is held (PGlite has one);
 * the outbox's dispatcher builds its contexts from that same reading.
 */
import type { Logger } from '@fw/core';
import type { ProcessConfigurator } from '@fw/process-api';
import type { OutboxExecutionContext } from '@fw/process-outbox';
import type { ProcessFlow } from '../flow/process-flow';
import type { ProcessOutbox } from '../outbox/process-outbox';
import type { ProcessDb, ProcessTables } from '../repository/process-tables';
import { definitionSnapshot, type DefinitionSnapshot } from './process-chaining';
import type { TxContext } from './process-engine-types';

export interface ProcessTransactionRunnerDeps {
  db: ProcessDb;
  configurator: ProcessConfigurator;
  flow: Promise<ProcessFlow>;
  clock: () => Date;
  logger: Logger;
}

/** Flow and definitions as read for the next transaction. */
export interface PreparedCall {
  flow: ProcessFlow;
  defs: DefinitionSnapshot;
}

export class ProcessTransactionRunner {
  private prepared: PreparedCall | undefined;
  /** Set once when the outbox is enabled: it is made with this runner's `prepare` and `outboxContext`. */
  outbox: Pick<ProcessOutbox, 'flush'> | undefined;

  constructor(private readonly deps: ProcessTransactionRunnerDeps) {}

  /** Reads the flow and the definitions for the next transaction. */
  async prepare(): Promise<PreparedCall> {
    this.prepared = { flow: await this.deps.flow, defs: definitionSnapshot(await this.deps.configurator.list()) };
    return this.prepared;
  }

  /** A context over an outbox dispatcher's transaction, from the last {@link prepare}. */
  outboxContext(ctx: OutboxExecutionContext<ProcessTables>): TxContext {
    if (!this.prepared) throw new Error('process outbox: handler ran before prepare()');
    return {
      trx: ctx.trx,
      now: this.deps.clock(),
      defs: this.prepared.defs,
      flow: this.prepared.flow,
      afterCommit: ctx.afterCommit,
      commands: [],
    };
  }

  /** Runs `fn` in one transaction; after-commit callbacks run in order once it committed. */
  async run<T>(fn: (ctx: TxContext) => Promise<T>): Promise<T> {
    const { flow, defs } = await this.prepare();
    const outbox = this.outbox;
    const callbacks: Array<() => void | Promise<void>> = [];
    const result = await this.deps.db.transaction().execute(async (trx) => {
      const ctx: TxContext = {
        trx,
        now: this.deps.clock(),
        defs,
        flow,
        afterCommit: (cb) => callbacks.push(cb),
        ...(outbox ? { commands: [] } : {}),
      };
      const value = await fn(ctx);
      if (outbox) await outbox.flush(ctx);
      return value;
    });
    await this.afterCommit(callbacks);
    return result;
  }

  private async afterCommit(callbacks: ReadonlyArray<() => void | Promise<void>>): Promise<void> {
    for (const cb of callbacks) {
      try {
        // Awaited only when it returned a promise: most callbacks are plain functions.
        const done = cb();
        if (typeof (done as PromiseLike<void> | undefined)?.then === 'function') await done;
      } catch (err) {
        this.deps.logger.error({ err }, 'after-commit callback failed (the state change is committed)');
      }
    }
  }
}
