/**
 * Reads a process for a manager call. A malformed id, a missing process and one of another tenant
 * all answer the same 404, so a caller cannot learn which ids exist in other tenants.
 */
import { currentTenantId } from '@fw/core';
import type { Process } from '@fw/process-api';
import type { ProcessRepository } from '../repository/process-repository';
import type { ProcessDb } from '../repository/process-tables';
import { isUuid } from './payload-validation';
import { notFound } from './process-engine-types';
import type { ProcessCallOptions } from './process-call-options';

/** The tenant a call is limited to: the given one, else the request context's (undefined: any). */
export function scopeOf(o: ProcessCallOptions | undefined): string | undefined {
  return o?.tenant !== undefined ? (o.tenant ?? undefined) : currentTenantId();
}

/** The process `id` in the call's tenant, locked when `forUpdate`; 404 otherwise. */
export async function loadProcess(
  repo: Pick<ProcessRepository, 'findById'>,
  db: ProcessDb,
  id: string,
  o: ProcessCallOptions | undefined,
  forUpdate: boolean,
): Promise<Process> {
  if (!isUuid(id)) throw notFound(id);
  const process = await repo.findById(db, id.toLowerCase(), { forUpdate });
  const scope = scopeOf(o);
  if (!process || (scope !== undefined && process.tenant !== scope)) throw notFound(id);
  return process;
}
