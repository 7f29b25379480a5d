/**
 * The admin server's `/info`, `/service-info[/{name}]` and `/health-check[/{name}]` (the info router
 * of `@fw/core`, framework envelope). They are for load balancers, orchestrators and monitoring, so
 * they need no key and say nothing secret: names, versions, the profile, which features run here.
 * The health check runs `select 1` on the process database; when that fails or does not answer
 * within {@link DATABASE_PROBE_TIMEOUT_MILLIS}, `/health-check` answers 503 with the error envelope
 * (`FW503`, "Unhealthy: process-database"). Why is logged, not answered: the error of a database
 * connection names hosts and users.
 *
 * @example
 * app.use(makeAdminInfoRouter({ profile: 'production', database, exampleWorkers: false, isSchedulerOwner: () => scheduler.isOwner(), logger }));
 * // GET /health-check → 200 { success: true, code: 200, payload: { healthy: true, checks: [{ name: 'process-database', healthy: true }] } }
 */
import { makeInfoRouter, type Database, type HealthCheck, type Logger, type ServiceInfo } from '@fw/core';
import type { Router } from 'express';
import adminServerPackage from '../../package.json';
import type { AdminProfile } from '../config/admin-config';

/** The name of the process database's probe (`/health-check/process-database`). */
export const PROCESS_DATABASE_CHECK = 'process-database';

/**
 * How long the probe waits for the database. A pool that cannot get a connection fails only after
 * its own connect timeout (10 s), longer than a typical orchestrator's probe: answer first.
 */
export const DATABASE_PROBE_TIMEOUT_MILLIS = 3_000;

export interface AdminInfoOptions {
  profile: AdminProfile;
  /** The server's process database (probed by `/health-check`). */
  database: Database;
  /** Whether the example workers run in this process. */
  exampleWorkers: boolean;
  /** Whether this instance holds the cron scheduler lease now. */
  isSchedulerOwner: () => boolean;
  logger: Logger;
}

/** `select 1` on the process database; throws (counted as unhealthy by the info router) when it fails or is too slow. */
export function processDatabaseCheck(database: Database, logger: Logger): HealthCheck {
  return {
    name: PROCESS_DATABASE_CHECK,
    async check() {
      let timer: NodeJS.Timeout | undefined;
      const tooSlow = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_PROBE_TIMEOUT_MILLIS} ms`)), DATABASE_PROBE_TIMEOUT_MILLIS);
      });
      try {
        await Promise.race([database.withSession((session) => session.query('select 1 as ok')), tooSlow]);
        return { healthy: true };
      } catch (err) {
        logger.warn({ err, database: database.displayUrl }, 'health check: the process database does not answer');
        throw err;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The info routes of the admin server; mount them before the key guard. */
export function makeAdminInfoRouter(options: AdminInfoOptions): Router {
  const version = adminServerPackage.version;
  const services = (): ServiceInfo[] => [
    {
      name: 'process',
      version,
      description: 'Process manager: /process routes (framework envelope, key required)',
      details: { definitionSource: 'database', outbox: true, workerStarter: 'jdbc-work-items', exampleWorkers: options.exampleWorkers },
    },
    {
      name: 'process-management',
      version,
      description: 'Administration API under /process-management/api (key required)',
      details: { cronAvailable: true, schedulerOwner: options.isSchedulerOwner() },
    },
  ];
  return makeInfoRouter({
    info: { name: 'admin-server', version, description: 'fw process administration server', details: { profile: options.profile } },
    services,
    healthChecks: [processDatabaseCheck(options.database, options.logger)],
  });
}
