/**
 * Loads a hand-written client (`clients/<host>-client.ts`) at run time. The clients import the
 * types generated during the test run, so they cannot be part of this package's own type check
 * (the generated files do not exist then); the strict `tsc` of generated-client.ts checks them
 * instead, and the suites call them through the narrow signatures below.
 */
import * as path from 'node:path';
import { CLIENTS_DIR } from './generated-client';

/** What the admin server's client exports. */
export interface AdminClientModule {
  exerciseAdminServer(
    baseUrl: string,
    key: string,
    tenant: string,
  ): Promise<{
    createdId: string;
    createdArgs: unknown;
    triggerId: string;
    listedTypes: string[];
    crontab: { id: string; timezone: string; enabled: boolean };
    updatedCrontab: { id: string; timezone: string; enabled: boolean };
    definition: { processType: string; inputSchema: Record<string, unknown> | null };
    hostServices: string[];
  }>;
}

/** What the query host's client exports. */
export interface QueryClientModule {
  exerciseQueryHost(
    baseUrl: string,
    tenant: string,
  ): Promise<{ titles: unknown[]; rowKeys: string[]; services: string[] }>;
}

function load(host: string, exported: string): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the client is chosen at run time and compiled by the test transform
  const loaded = require(path.join(CLIENTS_DIR, `${host}-client`)) as Record<string, unknown>;
  if (typeof loaded[exported] !== 'function')
    throw new Error(`clients/${host}-client.ts exports no function ${exported}`);
  return loaded;
}

export function loadAdminClient(): AdminClientModule {
  return load('admin-server', 'exerciseAdminServer') as unknown as AdminClientModule;
}

export function loadQueryClient(): QueryClientModule {
  return load('query-host', 'exerciseQueryHost') as unknown as QueryClientModule;
}
