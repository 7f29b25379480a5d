/**
 * Command line of the admin server: reads the profile and environment, builds and starts the
 * server, prints the URL (and in dev the key and a curl that triggers the example), and installs
 * the graceful shutdown (SIGTERM/SIGINT). Tracing (`startTelemetry` from the `OTEL_*` environment)
 * starts first, so every span of the server goes to it, and stops last, once nothing records.
 * Startup failures print ONE line naming what to fix and return exit code 1 before anything listens.
 */
import { createLogger, installGracefulShutdown, isConfigError, type Logger } from '@fw/core';
import { startTelemetry, type Telemetry } from '@fw/telemetry-node';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ADMIN_SERVER_USAGE, adminConfigFromEnv, parseAdminArgs, UsageError } from './config/admin-config';
import { EXAMPLE_TEXT, WORD_COUNT } from './example/word-count-workers';
import { createAdminServer, type AdminServer } from './host/admin-server';

/** The version of this package (`fw-admin-server --version`). */
export const ADMIN_SERVER_VERSION: string = (
  JSON.parse(readFileSync(path.resolve(__dirname, '../package.json'), 'utf8')) as { version: string }
).version;

export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

/** The curl that triggers the example (with `key`, or a `$PROCESS_MANAGEMENT_API_KEY` placeholder). */
export function exampleCurl(url: string, key: string, tenant = 'demo'): string {
  const body = JSON.stringify({ payload: { processDefName: WORD_COUNT, args: { text: EXAMPLE_TEXT } } });
  return `curl -s -X POST ${url}/process-management/api/triggers -H 'X-Process-Management-Key: ${key}' -H 'x-fw-tenant-id: ${tenant}' -H 'Content-Type: application/json' -d '${body}'`;
}

/** The start-up line saying whether traces are exported, and where to or why not, and what is instrumented. */
function logTraceExport(telemetry: Telemetry, logger: Logger): void {
  const { instrumentations } = telemetry;
  const instrumented = instrumentations.length > 0 ? ` (instrumented: ${instrumentations.join(', ')})` : '';
  if (telemetry.exporting)
    logger.info({ traces: telemetry.url, instrumentations }, `traces exported to ${telemetry.url}${instrumented}`);
  else logger.info({ traces: null }, `traces not exported: ${telemetry.reason}`);
}

/**
 * Starts the server for `argv`; resolves with it once listening, or with an exit code:
 * 0 after --help or --version, 1 on a startup failure, 2 on bad arguments.
 */
export async function startAdminServer(
  argv: readonly string[],
  io: AdminIo,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  logger: Logger = createLogger({ name: 'admin-server' }),
): Promise<AdminServer | number> {
  let profile;
  try {
    const parsed = parseAdminArgs(argv, env);
    if (parsed.help) {
      io.out(ADMIN_SERVER_USAGE);
      return 0;
    }
    if (parsed.version) {
      io.out(`fw-admin-server ${ADMIN_SERVER_VERSION}`);
      return 0;
    }
    profile = parsed.profile;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`admin-server: ${err.message}`);
    io.err(ADMIN_SERVER_USAGE);
    return 2;
  }
  let server: AdminServer | undefined;
  let telemetry: Telemetry | undefined;
  try {
    const config = adminConfigFromEnv(profile, env, cwd);
    telemetry = await startTelemetry({ serviceName: 'fw-admin-server' });
    logTraceExport(telemetry, logger);
    server = await createAdminServer({ config, logger });
    const { url } = await server.listen();
    const running = server;
    const tracing = telemetry;
    installGracefulShutdown({
      logger,
      steps: [() => running.close(), () => tracing.shutdown()],
      timeoutMillis: 20_000,
    });
    io.out(`admin-server: listening on ${url} (profile ${config.profile}, database ${server.database.displayUrl})`);
    io.out(`admin-server: admin UI: ${url}/fw/admin/`);
    if (config.dashboardEnabled !== false) io.out(`admin-server: process dashboard: ${url}/`);
    if (config.profile === 'dev') {
      const where = server.apiKeyFile
        ? ` (stored in ${path.relative(cwd, server.apiKeyFile) || server.apiKeyFile})`
        : '';
      io.out(`admin-server: API key${server.apiKeyGenerated ? ' (generated)' : ''}${where}: ${server.apiKey}`);
      io.out(
        `admin-server: trigger the example, then open ${url}/process-management/api/processes with the same headers:`,
      );
      io.out(`  ${exampleCurl(url, server.apiKey)}`);
    } else {
      io.out(`admin-server: every route needs header X-Process-Management-Key; try:`);
      io.out(
        `  ${exampleCurl(url, '$PROCESS_MANAGEMENT_API_KEY').replace(`'X-Process-Management-Key: $PROCESS_MANAGEMENT_API_KEY'`, `"X-Process-Management-Key: $PROCESS_MANAGEMENT_API_KEY"`)}`,
      );
    }
    return server;
  } catch (err) {
    await server?.close().catch(() => undefined);
    await telemetry?.shutdown().catch(() => undefined);
    if (isConfigError(err) || err instanceof RangeError) {
      io.err(`admin-server: cannot start: ${err.message.replace(/\s*\n\s*/g, ' ')}`);
    } else {
      io.err(
        `admin-server: cannot start, unexpected error: ${err instanceof Error ? err.message.replace(/\s*\n\s*/g, ' ') : String(err)}`,
      );
    }
    return 1;
  }
}
