/**
 * A small typed client of the admin server, written as a user would write one on the types
 * openapi-typescript generates from the served `/openapi.json` (`.generated/admin-server.ts`) and
 * on openapi-fetch. It is compiled by a strict `tsc` and run against a live host: every call
 * below must type-check exactly as written, with no cast.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from '../.generated/admin-server';

/** What the calls returned, for the test to check. */
export interface AdminExercise {
  createdId: string;
  createdArgs: unknown;
  triggerId: string;
  listedTypes: string[];
  crontab: components['schemas']['Crontab'];
  updatedCrontab: components['schemas']['Crontab'];
  definition: components['schemas']['ProcessDef'];
  hostServices: string[];
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`no ${what} in the answer`);
  return value;
}

/** Calls a few real operations of the admin server at `baseUrl` as tenant `tenant`. */
export async function exerciseAdminServer(baseUrl: string, key: string, tenant: string): Promise<AdminExercise> {
  const client = createClient<paths>({ baseUrl, headers: { 'X-Process-Management-Key': key } });
  const header = { 'x-fw-tenant-id': tenant };

  // /process: a free-form args object, the tenant as an optional header.
  const created = await client.POST('/process', {
    params: { header },
    body: {
      processDefName: 'word-count',
      args: { texts: ['to be', 'or not to be'] },
      description: 'from the generated client',
    },
  });
  const process = required(created.data, 'created process').payload.mutatedEntity;
  const read = await client.GET('/process/{id}', { params: { path: { id: process.id }, header } });
  const readBack = required(read.data, 'process').payload.mutatedEntity;

  // The administration API: a manual trigger, then the processes of the tenant.
  const triggered = await client.POST('/process-management/api/triggers', {
    params: { header },
    body: { triggerId: `client-${process.id}`, payload: { processDefName: 'word-count', args: { texts: ['a b c'] } } },
  });
  const trigger = required(triggered.data, 'trigger result');
  const listed = await client.GET('/process-management/api/processes', {
    params: { header, query: { processType: 'word-count', size: 10 } },
  });
  const page = required(listed.data, 'process page');

  // A crontab: created with only what it needs (time zone and enabled left to the server), moved
  // to another zone, then disabled by a partial update that keeps that zone.
  const added = await client.POST('/process-management/api/crontabs', {
    params: { header },
    body: {
      name: `nightly-${process.id}`,
      cronExpression: '0 0 3 * * *',
      payload: { processDefName: 'word-count', args: { texts: ['nightly'] } },
    },
  });
  const crontab = required(added.data, 'crontab');
  const crontabPath = { header, path: { id: crontab.id } };
  await client.PUT('/process-management/api/crontabs/{id}', {
    params: crontabPath,
    body: { timezone: 'Europe/Berlin' },
  });
  const updated = await client.PUT('/process-management/api/crontabs/{id}', {
    params: crontabPath,
    body: { enabled: false },
  });
  const updatedCrontab = required(updated.data, 'updated crontab');
  await client.DELETE('/process-management/api/crontabs/{id}', { params: crontabPath });

  // A definition with a free-form input schema and config.
  const defined = await client.POST('/process-management/api/definitions', {
    params: { header },
    body: {
      processType: `client-type-${process.id}`,
      leaf: true,
      config: { size: '10' },
      inputSchema: { type: 'object', properties: { texts: { type: 'array' } } },
    },
  });
  const definition = required(defined.data, 'definition');

  const info = await client.GET('/info');
  const hostServices = required(info.data, 'host info').payload.services.map((s) => s.name);

  return {
    createdId: readBack.id,
    createdArgs: readBack.input,
    triggerId: trigger.triggerId,
    listedTypes: page.content.map((p) => p.processType),
    crontab,
    updatedCrontab,
    definition,
    hostServices,
  };
}
