/**
 * `manager.createProcess`: a root process from a caller's dto. The checks that need the
 * definitions run inside the transaction, against the same reading the process is created from.
 */
import { currentTenantId } from '@fw/core';
import type { Process, ProcessDto } from '@fw/process-api';
import { assertInputMatches, assertRootType } from './input-validation';
import { validateProcessDto } from './payload-validation';
import type { ProcessEngine } from './process-engine';
import { unknownType } from './process-engine-types';
import type { CreateProcessOptions } from './process-call-options';
import type { ProcessTransactionRunner } from './process-transaction-runner';

export interface ProcessCreatorDeps {
  engine: Pick<ProcessEngine, 'newProcess' | 'startProcesses'>;
  transactions: Pick<ProcessTransactionRunner, 'run'>;
}

/** Validates the dto, creates the root process and starts it; returns it as saved. */
export async function createRootProcess(
  deps: ProcessCreatorDeps,
  body: ProcessDto | unknown,
  o: CreateProcessOptions,
): Promise<Process> {
  const { engine } = deps;
  const dto = validateProcessDto(body);
  const tenant = o.tenant !== undefined ? o.tenant : (currentTenantId() ?? null);
  return deps.transactions.run(async (ctx) => {
    const def = ctx.defs.get(dto.processDefName);
    if (!def) throw unknownType(dto.processDefName, 'processDefName');
    if (o.refuseChildOnlyTypes) assertRootType(def);
    assertInputMatches(def, dto.args, 'args');
    const p = engine.newProcess(ctx, def, {
      input: dto.args,
      tenant,
      triggerId: dto.triggerId ?? o.triggerId ?? null,
      description: dto.description,
    });
    await engine.startProcesses(ctx, [p]);
    return p;
  });
}
