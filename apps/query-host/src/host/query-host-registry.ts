/**
 * The query host's service registry: the host's facts (name, version and license from this
 * package) and one service, the named queries, with its details, health check and ACL check.
 */
import type { Logger } from '@fw/core';
import type { QueryAuthorizer } from '@fw/query-controller';
import { QUERY_CONFIG_DEFAULTS, type QueryService } from '@fw/query-core';
import { makeServiceRegistry, type ServiceRegistry } from '@fw/service';
import express from 'express';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { HostConfig } from '../config/host-config';
import type { HostDatabases } from './host-databases';
import { defineQueryService } from './query-services';

export interface QueryHostRegistryDeps {
  config: HostConfig;
  queryService: QueryService;
  databases: Pick<HostDatabases, 'healthChecks'>;
  /** ACL check; without one acls are not enforced. */
  authorizer?: QueryAuthorizer;
  logger: Logger;
}

/** This package's version and license, as the host describes itself (`/info`, `/openapi.json`). */
function packageFacts(): { version: string; license: string | undefined } {
  try {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      version?: unknown;
      license?: unknown;
    };
    return {
      version: typeof pkg.version === 'string' ? pkg.version : '0.0.0',
      license: typeof pkg.license === 'string' ? pkg.license : undefined,
    };
  } catch {
    return { version: '0.0.0', license: undefined };
  }
}

/** Runs every database probe; healthy when all are. */
async function checkDatabases(databases: Pick<HostDatabases, 'healthChecks'>) {
  const checks = await Promise.all(
    databases.healthChecks().map(async (c) => ({
      name: c.name,
      ...(await c.check().catch((err: unknown) => ({ healthy: false, message: (err as Error).message }))),
    })),
  );
  return { healthy: checks.every((c) => c.healthy), checks };
}

/** Makes the registry. */
export function makeQueryHostRegistry(deps: QueryHostRegistryDeps): ServiceRegistry {
  const { config, queryService, authorizer, logger } = deps;
  const { version, license } = packageFacts();
  return makeServiceRegistry({
    host: {
      name: 'query-host',
      version,
      description: 'fw named query host',
      ...(license === undefined ? {} : { license: { name: license, identifier: license } }),
    },
    services: [
      defineQueryService({
        queryService,
        maxRowsInPage: config.query.pagination?.maxRowsInPage ?? QUERY_CONFIG_DEFAULTS.maxRowsInPage,
        version,
        tenants: Object.keys(config.query.datasources),
        details: () => ({
          provider: config.query.provider ?? 'sql',
          tenants: Object.keys(config.query.datasources),
          defaultTenantId: config.query.defaultTenantId ?? null,
          aclsEnforced: authorizer !== undefined,
        }),
        healthCheck: () => checkDatabases(deps.databases),
        // The host's authorizer takes an express request: give it one carrying the call's headers.
        ...(authorizer
          ? {
              authorize: (headers: Readonly<Record<string, string>>, acls: readonly string[]) =>
                authorizer(Object.assign(Object.create(express.request) as express.Request, { headers }), acls),
            }
          : {}),
        logger,
      }),
    ],
    logger,
  });
}
